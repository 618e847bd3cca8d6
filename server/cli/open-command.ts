/**
 * `od open [--print] [--data-dir DIR]`: sign a browser in to the od running on that data dir, with a fresh one-time
 * link, so nobody needs the first URL od printed. It reads the daemon's address and API token from the private
 * daemon file (server/daemon-file.ts), asks the daemon for a link (`POST /api/session/links`), and opens the browser
 * on a private redirect page, or with `--print` prints the URL.
 */
import { chosenDataDir } from "../data-dir.ts";
import { readDaemonFile } from "../daemon-file.ts";
import { resolveDataDir } from "../paths.ts";
import type { CommandSpec } from "./command.ts";
import { openSignIn } from "./open-sign-in.ts";

export const openCommand: CommandSpec = {
  name: "open",
  summary: "open a browser signed in to the running od (a fresh one-time link)",
  details: "Reaches the od serving the data dir (default $OD_DATA_DIR or ~/.od). Without --print it opens $BROWSER or the\nsystem's browser; with it, prints the URL (it signs one browser in, once, within ten minutes).",
  flags: [
    { name: "print", type: "boolean", description: "print the sign-in URL instead of opening a browser" },
    { name: "data-dir", type: "string", valueName: "DIR", description: "the data dir of the od to sign in to (default $OD_DATA_DIR or ~/.od)" },
  ],
  async run({ flags }, io) {
    const given = flags["data-dir"] as string | undefined;
    const dataDir = resolveDataDir(io.env, given);
    let daemon;
    try {
      daemon = readDaemonFile(dataDir);
    } catch (error) {
      io.stderr(`od: ${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    }
    const start = `start it with \`od serve${given ? ` --data-dir ${given}` : ""}\``;
    if (!daemon) {
      io.stderr(`od: no od is running on ${chosenDataDir(io.env, given)}; ${start}\n`);
      return 1;
    }
    let url: string;
    try {
      const res = await fetch(`${daemon.origin}/api/session/links`, {
        method: "POST",
        headers: { authorization: `Bearer ${daemon.token}`, "content-type": "application/json" },
        body: "{}",
      });
      const body = (await res.json().catch(() => null)) as { url?: string; error?: { message?: string } } | null;
      if (!res.ok || typeof body?.url !== "string") throw new Error(body?.error?.message ?? `HTTP ${res.status}`);
      url = body.url;
    } catch (error) {
      io.stderr(`od: the od on ${dataDir} (pid ${daemon.pid}, ${daemon.origin}) did not give a sign-in link: ${error instanceof Error ? error.message : String(error)}; ${start}\n`);
      return 1;
    }
    if (flags.print) {
      io.stdout(`${url}\n`);
      return 0;
    }
    return (await openSignIn({ dataDir, url, env: io.env, stderr: io.stderr, dataDirFlag: given })) ? 0 : 1;
  },
};
