/**
 * The running daemon: an HTTP server that is up at once, then the data dir and its database (server/early.ts), then
 * the engine (catalog, runs, every route) loading behind them. Until the engine is ready, `/api/health` answers
 * `{ok, version, ready: false}` (through the same guard), the early answers (server/http/early-answers.ts) come from
 * the database as soon as it is open, and every other request waits for the engine. Portable: the runtime (Bun or
 * Deno) passes in how to open sqlite and serve.
 */
import type { DshRuntimeSource } from "./dsh/embedded-runtime.ts";
import type { Early } from "./early.ts";
import type { Engine } from "./engine.ts";
import { loadEngineModule } from "./engine-loader.ts";
import { Credentials, OPENED_CODE_TTL_MS, randomSecret } from "./http/credentials.ts";
import { limitRequestBody } from "./http/body-limit.ts";
import { createGuard, type GuardOptions } from "./http/guard.ts";
import { withSecurityHeaders } from "./http/security-headers.ts";
import { endStartupJitPolicy } from "./platform/jit-policy.ts";
import { releaseStartupMemory } from "./platform/memory.ts";
import type { UiAssets } from "./http/ui.ts";
import type { OpenApiSource } from "./http/openapi.ts";
import type { BundledSkillFiles } from "./skills/bundled-root.ts";
import { SessionsRepo } from "./store/sessions-repo.ts";
import type { SqliteOpener } from "./store/sqlite.ts";
import { VERSION } from "./version.ts";
import type { HttpServe } from "./platform/http-serve.ts";

export type { HttpServe };

export type DaemonOptions = {
  port: number;
  host: string;
  dataDir: string;
  /** Fixed API token (OD_TOKEN) for `Authorization: Bearer`; a random one per launch otherwise. */
  token?: string;
  ui?: UiAssets;
  openSqlite: SqliteOpener;
  serve: HttpServe;
  /** The DSH profile package `POST /api/agents/deepseek-harness/setup` installs (default: packed from source). */
  dshRuntime?: () => DshRuntimeSource;
  /** Environment the engine sees (agents, timeouts); defaults to the process's. */
  env?: Record<string, string | undefined>;
  /** Bundled skills embedded in the binary (`BUNDLED_SKILL_FILES`); absent → read from the source folder. */
  bundledSkillFiles?: BundledSkillFiles;
  /** `GET /api/openapi.json`'s text (the binary's embedded copy); absent → generated from the route table. */
  openApi?: OpenApiSource;
};

export type Daemon = {
  /** The sign-in URL od prints: its `?token=` is a one-time launch code, not the API token. */
  url: string;
  /** Another one-time sign-in URL, short-lived, for handing to a browser on its command line. */
  openUrl(): string;
  port: number;
  /** The API token (bearer for scripts); never printed. */
  token: string;
  /** Settles when the engine has loaded (rejects if it could not: the caller should report and stop). */
  ready: Promise<void>;
  stop(): Promise<void>;
  /** Make a `stop()` in progress (or to come) end every agent without waiting out the cancel grace periods. */
  hurry(): void;
};

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host.toLowerCase()) || host.startsWith("127.");
}

export async function startDaemon(options: DaemonOptions): Promise<Daemon> {
  const token = options.token || randomSecret();
  const credentials = new Credentials(token);
  let port = options.port;
  const wildcard = options.host === "0.0.0.0" || options.host === "::";
  const guardOptions: GuardOptions = {
    credentials,
    port: () => port,
    extraHostNames: isLoopbackHost(options.host) || wildcard ? [] : [options.host],
  };
  const guard = createGuard(guardOptions);
  const shownHost = isLoopbackHost(options.host) || wildcard ? "127.0.0.1" : options.host;

  let engine: Engine | undefined;
  let startLoading: () => void = () => {};
  const early = new Promise<Early>((resolve, reject) => {
    startLoading = () =>
      void import("./early.ts")
        .then(({ startEarly }) => startEarly(options.dataDir, options.openSqlite))
        .then((opened) => {
          // Sessions live in od.db: from here on a browser signed in before a restart is signed in again.
          credentials.keepSessionsIn(new SessionsRepo(opened.db));
          return opened;
        })
        .then(resolve, reject);
  });
  early.catch(() => undefined); // reported through `ready`
  // Where `od open` finds this daemon (server/daemon-file.ts): written once the data dir is private.
  let publishedIn: string | undefined;
  const publish = (dataDir: string) =>
    import("./daemon-file.ts")
      .then(({ writeDaemonFile }) => {
        writeDaemonFile(dataDir, { pid: process.pid, origin: `http://${shownHost}:${port}`, token });
        publishedIn = dataDir;
      })
      .catch((error: unknown) => {
        // od still serves; only `od open` cannot find it.
        console.error(`od: could not write daemon.json (od open will not find this od): ${error instanceof Error ? error.message : String(error)}`);
      });
  const engineLoaded = new Promise<Engine>((resolve, reject) => {
    void early
      .then(({ data }) => data)
      .then((data) => publish(data.dataDir).then(() => data))
      .then((data) =>
        loadEngineModule().then(({ startEngine }) =>
          startEngine({ data, env: options.env ?? process.env, guard: guardOptions, ui: options.ui, dshRuntime: options.dshRuntime, bundledSkillFiles: options.bundledSkillFiles, openApi: options.openApi }),
        ),
      )
      .then((loaded) => {
        engine = loaded;
        // Warm detection once the engine is up, so probing every CLI never delays a request; then start-up is over:
        // the JIT compiles hot code as usual again (a run started meanwhile restores it once it streams: RunService),
        // and what start-up left behind is handed back at once (platform/memory.ts) instead of staying resident.
        // Restored before the warm-up, the JIT compiled its run-once code and idle RSS was 3.5 MB higher.
        const startupOver = () => {
          if (stopping) return; // stopped meanwhile: nothing of it runs any more
          endStartupJitPolicy();
          releaseStartupMemory(loaded.services.runs.startedCount);
        };
        setTimeout(() => void loaded.services.catalog.warm().then(startupOver, startupOver), 0);
        resolve(loaded);
      }, reject);
  });
  engineLoaded.catch(() => undefined); // reported through `ready`

  const server = options.serve({
    port: options.port,
    hostname: options.host,
    fetch: async (incoming) => {
      // Before anything can read the body: a body past its route's limit is a 413, never read further.
      const request = limitRequestBody(incoming);
      if (request instanceof Response) return withSecurityHeaders(incoming, request);
      // The guard first: it answers a malformed Host (which request.url is built from) with a typed 400.
      if (!engine) {
        let refused = guard(request);
        if (refused?.status === 401 && !credentials.sessionsOpen) {
          // A session secret can be told from a wrong one only once od.db is open (a tab reconnecting after a restart).
          await early.catch(() => undefined);
          refused = guard(request);
        }
        if (refused) return withSecurityHeaders(request, refused);
        if (new URL(request.url).pathname === "/api/health") return Response.json({ ok: true, version: VERSION, ready: false });
        // A data dir that cannot be opened fails the engine too: the request then gets the 503 below.
        const answer = await (await early.catch(() => undefined))?.answer(request);
        if (answer) return withSecurityHeaders(request, answer);
      }
      let loaded: Engine;
      try {
        loaded = engine ?? (await engineLoaded);
      } catch {
        return Response.json({ error: { code: "UNAVAILABLE", message: "od failed to start its engine; see its log" } }, { status: 503 });
      }
      return withSecurityHeaders(request, await loaded.app.handle(request));
    },
  });
  port = server.port;
  startLoading();

  let stopping: Promise<void> | undefined;
  const signInUrl = (ttlMs?: number) => `http://${shownHost}:${port}/?token=${credentials.issueLaunchCode(ttlMs).code}`;
  let hurried = false;
  return {
    url: signInUrl(),
    openUrl: () => signInUrl(OPENED_CODE_TTL_MS),
    port,
    token,
    ready: engineLoaded.then(() => undefined),
    hurry: () => {
      hurried = true;
      engine?.services.runs.hurry();
    },
    stop: () =>
      (stopping ??= (async () => {
        const loaded = await engineLoaded.catch(() => undefined);
        if (hurried) loaded?.services.runs.hurry();
        await loaded?.services.runs.shutdown();
        await server.stop();
        if (loaded) await loaded.stop();
        else (await early.catch(() => undefined))?.db.close(); // opened, but the engine never took it over
        if (publishedIn) (await import("./daemon-file.ts")).removeDaemonFile(publishedIn, process.pid);
      })()),
  };
}
