/**
 * The running daemon: store, app and HTTP server wired together, plus an orderly stop. Portable: the runtime
 * (Bun or Deno) passes in how to open sqlite and how to serve.
 */
import { randomBytes } from "node:crypto";
import { createApp } from "./app.ts";
import { agentRoutes } from "./http/agents.ts";
import { connectionTestRoutes } from "./http/connection-test.ts";
import { mcpRoutes } from "./http/mcp.ts";
import { projectRoutes } from "./http/projects.ts";
import { runRoutes } from "./http/runs.ts";
import { setupRoutes } from "./http/setup.ts";
import { skillRoutes } from "./http/skills.ts";
import { uploadRoutes } from "./http/uploads.ts";
import type { BundledSkillFiles } from "./skills/bundled-root.ts";
import type { DshRuntimeSource } from "./dsh/embedded-runtime.ts";
import { createServices } from "./services.ts";
import { withSecurityHeaders, type UiAssets } from "./http/ui.ts";
import { dataPaths } from "./paths.ts";
import type { SqliteOpener } from "./store/sqlite.ts";
import { Store } from "./store/store.ts";
import { VERSION } from "./version.ts";

export type HttpServe = (options: {
  fetch: (request: Request) => Response | Promise<Response>;
  port: number;
  hostname: string;
}) => { port: number; stop(): Promise<void> };

export type DaemonOptions = {
  port: number;
  host: string;
  dataDir: string;
  /** Fixed token (OD_TOKEN); a random one per launch otherwise. */
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
};

export type Daemon = { url: string; port: number; token: string; stop(): Promise<void> };

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host.toLowerCase()) || host.startsWith("127.");
}

export function newToken(): string {
  return randomBytes(24).toString("base64url");
}

export async function startDaemon(options: DaemonOptions): Promise<Daemon> {
  const token = options.token || newToken();
  const store = Store.open(dataPaths(options.dataDir).database, options.openSqlite);
  let port = options.port;
  const extraHostNames = isLoopbackHost(options.host) || options.host === "0.0.0.0" || options.host === "::" ? [] : [options.host];
  const services = createServices({ store, dataDir: options.dataDir, env: options.env ?? process.env, bundledSkillFiles: options.bundledSkillFiles });
  // What a run gets besides the prompt: skills, MCP servers, image uploads.
  const projectDirOf = (id: string) => services.projects.require(id).path;
  const inputRoutes = [
    skillRoutes(services.skills, projectDirOf),
    mcpRoutes({ userPath: dataPaths(options.dataDir).mcp, projectDirOf, defs: services.defs }),
    uploadRoutes(projectDirOf),
    connectionTestRoutes({ catalog: services.catalog, defs: services.defs, env: options.env ?? process.env, dataDir: options.dataDir, appConfig: () => store.appConfig.get() }),
  ];
  const interrupted = services.runs.recoverInterruptedRuns();
  if (interrupted) console.error(`od: marked ${interrupted} run(s) interrupted by the last shutdown as failed`);
  const app = await createApp({
    version: VERSION,
    store,
    guard: { token, port: () => port, extraHostNames },
    ui: options.ui,
    modules: [agentRoutes(services.catalog), projectRoutes(store, services.projects), runRoutes(services.runs), setupRoutes({ catalog: services.catalog, env: options.env ?? process.env, source: options.dshRuntime }), ...inputRoutes],
  });
  const server = options.serve({ fetch: async (request) => withSecurityHeaders(request, await app.handle(request)), port: options.port, hostname: options.host });
  port = server.port;
  // Warm detection once we are serving, so probing 28 CLIs never delays the first request.
  setTimeout(() => void services.catalog.warm(), 0);
  const shownHost = isLoopbackHost(options.host) || options.host === "0.0.0.0" || options.host === "::" ? "127.0.0.1" : options.host;
  let stopping: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${port}/?token=${token}`,
    port,
    token,
    stop: () =>
      (stopping ??= (async () => {
        await services.runs.shutdown();
        await server.stop();
        store.close();
      })()),
  };
}
