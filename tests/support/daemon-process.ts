/**
 * Start an od process (binary, source or Deno) and read its first stdout line, the `od listening on …` URL. The
 * process gets a known API token (`OD_TOKEN`, unless the caller sets one) for bearer calls; the printed URL carries a
 * one-time launch code, so `signInUrl()` asks the daemon for a fresh one per browser page.
 */
import { randomSecret } from "../../server/http/credentials.ts";
import { groupExists } from "../../server/machines/process-tree.ts";
import { spawnChild, type ChildHandle } from "../../server/platform/process.ts";

export type RunningDaemon = {
  child: ChildHandle;
  /** The printed sign-in URL (its code works once). */
  url: string;
  /** The printed URL's one-time launch code. */
  code: string;
  origin: string;
  port: number;
  /** The API token (`OD_TOKEN`), for `Authorization: Bearer`. */
  token: string;
  /** A fresh one-time sign-in URL. */
  signInUrl(): Promise<string>;
  stderr(): string;
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
};

const FIRST_LINE = /^od listening on (http:\/\/127\.0\.0\.1:(\d+))\/\?token=(\S+)$/;

export async function startDaemonProcess(argv: string[], options: { env?: Record<string, string | undefined>; cwd?: string; timeoutMs?: number } = {}): Promise<RunningDaemon> {
  const token = options.env?.OD_TOKEN ?? randomSecret();
  const child = await spawnChild({ argv, cwd: options.cwd, env: { ...process.env, ...options.env, OD_TOKEN: token }, ownProcessGroup: true });
  let stderr = "";
  void (async () => {
    for await (const chunk of child.stderr) stderr += new TextDecoder().decode(chunk);
  })();
  const decoder = new TextDecoder();
  let buffered = "";
  const reader = child.stdout[Symbol.asyncIterator]();
  const deadline = setTimeout(() => child.kill("SIGKILL", { group: true }), options.timeoutMs ?? 20_000);
  try {
    while (!buffered.includes("\n")) {
      const next = await reader.next();
      if (next.done) throw new Error(`od exited before printing its URL; stderr:\n${stderr}`);
      buffered += decoder.decode(next.value, { stream: true });
    }
  } finally {
    clearTimeout(deadline);
  }
  // Keep draining stdout so the child never blocks on a full pipe.
  void (async () => {
    for (;;) if ((await reader.next()).done) break;
  })();
  const stop = async () => {
    child.kill("SIGTERM", { group: true });
    const timer = setTimeout(() => child.kill("SIGKILL", { group: true }), 5_000);
    await child.exited;
    // A wrapper (`npm start`) can exit before the daemon it started has: the whole group is waited for (the SIGKILL
    // above ends it), so a data dir the caller removes next is removed after every process that writes it.
    const giveUpAt = Date.now() + 10_000;
    while ((await groupExists(child.pid)) && Date.now() < giveUpAt) await new Promise((resolve) => setTimeout(resolve, 20));
    clearTimeout(timer);
  };
  const firstLine = buffered.split("\n")[0]!;
  const match = FIRST_LINE.exec(firstLine);
  if (!match) {
    // Whatever printed that line is still running: stop it before failing.
    await stop();
    throw new Error(`unexpected first line: ${JSON.stringify(firstLine)}`);
  }
  const origin = match[1]!;
  return {
    child,
    url: firstLine.slice("od listening on ".length),
    code: match[3]!,
    origin,
    port: Number(match[2]),
    token,
    async signInUrl() {
      const res = await fetch(`${origin}/api/session/links`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: "{}" });
      if (!res.ok) throw new Error(`POST /api/session/links: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { url: string }).url;
    },
    stderr: () => stderr,
    stop,
    [Symbol.asyncDispose]: stop,
  };
}
