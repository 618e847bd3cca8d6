/** `od serve` (the default command): start the daemon, print the URL line, run until interrupted. */
import type { HttpServe } from "../daemon.ts";
import type { DshRuntimeSource } from "../dsh/embedded-runtime.ts";
import type { BundledSkillFiles } from "../skills/bundled-root.ts";
import { isLoopbackHost, startDaemon } from "../daemon.ts";
import type { OpenApiSource } from "../http/openapi.ts";
import type { UiAssets } from "../http/ui.ts";
import { chosenDataDir } from "../data-dir.ts";
import type { SqliteOpener } from "../store/sqlite.ts";
import type { CommandSpec } from "./command.ts";
import { watchParentExit } from "./parent-watch.ts";

export type ServeRuntime = {
  openSqlite: SqliteOpener;
  serve: HttpServe;
  ui?: () => UiAssets | undefined;
  /** The DSH profile package setup installs (embedded in the binary, packed from source otherwise). */
  dshRuntime?: () => DshRuntimeSource;
  bundledSkillFiles?: BundledSkillFiles;
  /** The OpenAPI document's text, embedded in the binary (source runs generate it). */
  openApi?: OpenApiSource;
};

export const DEFAULT_PORT = 7456;

export function serveCommand(runtime: ServeRuntime): CommandSpec {
  return {
    name: "serve",
    summary: "start the local server and open the browser",
    details: `Prints "od listening on http://127.0.0.1:PORT/?token=CODE" as its first line; CODE signs one browser in, once.\n\`od open\` signs in another browser (or the same one again) at any time.\nEnvironment: OD_DATA_DIR (data dir), OD_TOKEN (fixed API token for Authorization: Bearer instead of a random one), BROWSER (the browser to open).`,
    flags: [
      { name: "port", type: "number", valueName: "PORT", description: `port to listen on (default ${DEFAULT_PORT}; 0 = any free port)` },
      { name: "host", type: "string", valueName: "HOST", description: "address to bind (default 127.0.0.1; non-loopback is unsafe)" },
      { name: "no-open", type: "boolean", description: "do not open the browser" },
      { name: "data-dir", type: "string", valueName: "DIR", description: "where od keeps its data (default $OD_DATA_DIR or ~/.od)" },
      { name: "exit-with-parent", type: "boolean", description: "shut down when the process that started od exits (npm start)" },
    ],
    async run({ flags }, io) {
      // Claimed now: a signal while the daemon starts still shuts it down in order.
      const interrupted = io.interrupted;
      const port = (flags.port as number | undefined) ?? DEFAULT_PORT;
      if (!Number.isInteger(port) || port < 0 || port > 65535) {
        io.stderr(`od: --port must be an integer between 0 and 65535\n`);
        return 2;
      }
      const host = (flags.host as string | undefined) ?? "127.0.0.1";
      if (!isLoopbackHost(host)) {
        io.stderr(
          `od: warning: binding ${host} exposes od beyond this machine; anyone who gets the token can run agents as you\n`,
        );
      }
      // Watched from the start: a parent that exits while the engine loads must stop od too.
      let stopWatching = () => {};
      const parentExited = new Promise<string>((resolve) => {
        if (flags["exit-with-parent"]) stopWatching = watchParentExit(() => resolve("the process that started od exited"));
      });
      const dataDir = chosenDataDir(io.env, flags["data-dir"] as string | undefined);
      const daemon = await startDaemon({
        port,
        host,
        dataDir,
        token: io.env.OD_TOKEN,
        ui: runtime.ui?.(),
        ...(runtime.dshRuntime ? { dshRuntime: runtime.dshRuntime } : {}),
        ...(runtime.bundledSkillFiles ? { bundledSkillFiles: runtime.bundledSkillFiles } : {}),
        ...(runtime.openApi ? { openApi: runtime.openApi } : {}),
        openSqlite: runtime.openSqlite,
        serve: runtime.serve,
      });
      io.stdout(`od listening on ${daemon.url}\n`);
      if (!flags["no-open"]) {
        // Once the data dir is private and the engine answers: the browser gets a redirect page in it (open-sign-in.ts).
        void daemon.ready.then(
          () =>
            import("./open-sign-in.ts").then(({ openSignIn }) =>
              openSignIn({ dataDir, url: daemon.openUrl(), env: io.env, stderr: io.stderr, dataDirFlag: flags["data-dir"] as string | undefined }),
            ),
          () => undefined, // reported below
        );
      }
      const outcome = await Promise.race([
        interrupted.then((signal) => ({ signal })),
        parentExited.then((signal) => ({ signal })),
        daemon.ready.then(
          () => new Promise<never>(() => {}),
          (error: unknown) => ({ error }),
        ),
      ]);
      stopWatching();
      if ("error" in outcome) {
        io.stderr(`od: could not start: ${outcome.error instanceof Error ? outcome.error.message : String(outcome.error)}\n`);
        await daemon.stop();
        return 1;
      }
      io.stderr(`od: ${outcome.signal}, shutting down\n`);
      void io.hurried?.then((signal) => {
        io.stderr(`od: ${signal} again: stopping the agents without waiting for them\n`);
        daemon.hurry();
      });
      await daemon.stop();
      return 0;
    },
  };
}
