/**
 * The engine behind the HTTP server: store, agent catalog, run service and every route module, assembled into one
 * app. Loaded by the daemon right after it starts listening, so the first request never waits for 28 agent defs,
 * the parsers, the transports and the schemas to load.
 */
import { createApp, type App } from "./app.ts";
import type { DshRuntimeSource } from "./dsh/embedded-runtime.ts";
import { agentRoutes } from "./http/agents.ts";
import { connectionTestRoutes } from "./http/connection-test.ts";
import type { GuardOptions } from "./http/guard.ts";
import { mcpRoutes } from "./http/mcp.ts";
import { generatedOpenApi, openApiRoutes, type OpenApiSource } from "./http/openapi.ts";
import { projectRoutes } from "./http/projects.ts";
import { runChangeRoutes } from "./http/run-changes.ts";
import { folderRoutes } from "./http/folders.ts";
import { RunReverter } from "./runs/run-revert.ts";
import { runOutputLinkRoutes } from "./http/run-output-link.ts";
import { runRoutes } from "./http/runs.ts";
import { setupRoutes } from "./http/setup.ts";
import { skillRoutes } from "./http/skills.ts";
import type { UiAssets } from "./http/ui.ts";
import { uploadRoutes } from "./http/uploads.ts";
import { usageRoutes } from "./http/usage.ts";
import { worktreeRoutes } from "./http/worktrees.ts";
import { uploadsRootOf } from "./inputs/upload-root.ts";
import { dataPaths } from "./paths.ts";
import type { OpenedDataDir } from "./open-data-dir.ts";
import { createServices, type Services } from "./services.ts";
import type { BundledSkillFiles } from "./skills/bundled-root.ts";
import { Store } from "./store/store.ts";
import { VERSION } from "./version.ts";

export type EngineOptions = {
  /** The data dir, private and with its database open (server/open-data-dir.ts); the engine's store takes it over. */
  data: OpenedDataDir;
  env: Record<string, string | undefined>;
  guard: GuardOptions;
  ui?: UiAssets;
  dshRuntime?: () => DshRuntimeSource;
  bundledSkillFiles?: BundledSkillFiles;
  /** The OpenAPI document's text (the binary's embedded dist/openapi.json); generated from the route table when absent. */
  openApi?: OpenApiSource;
};

export type Engine = { app: App; store: Store; services: Services; stop(): Promise<void> };

export async function startEngine(options: EngineOptions): Promise<Engine> {
  const { dataDir } = options.data;
  const store = Store.over(options.data.db);
  const services = createServices({ store, dataDir, env: options.env, bundledSkillFiles: options.bundledSkillFiles, checkpointAfterRuns: true });
  const projectDirOf = (id: string) => services.projects.require(id).path;
  const interrupted = services.runs.recoverInterruptedRuns();
  if (interrupted) console.error(`od: marked ${interrupted} run(s) interrupted by the last shutdown as failed`);
  // Remote clean-ups an earlier od could not finish (their host did not answer) are retried from now on.
  services.runs.resumeRemoteCleanups();
  // Worktrees whose folders were removed by hand are forgotten by git (their branches stay).
  void services.worktrees.pruneAtStart();
  const app = await createApp({
    version: VERSION,
    store,
    guard: options.guard,
    ui: options.ui,
    modules: [
      agentRoutes(services.catalog),
      projectRoutes(store, services.projects, options.guard.credentials, services.worktrees, services.space),
      runRoutes(services.runs),
      worktreeRoutes(services.worktrees, services.runGroups, services.projects),
      runChangeRoutes(store, new RunReverter({ store, remote: services.remote })),
      folderRoutes(services.remote),
      runOutputLinkRoutes(store, options.guard.credentials),
      usageRoutes(store.runs),
      setupRoutes({ catalog: services.catalog, env: options.env, source: options.dshRuntime }),
      // What a run gets besides the prompt: skills, MCP servers, image uploads.
      skillRoutes(services.skills, projectDirOf, services.remote),
      mcpRoutes({ userPath: dataPaths(dataDir).mcp, projectDirOf, defs: services.defs, remote: services.remote, consents: store.mcpConsents }),
      uploadRoutes((id) => uploadsRootOf(services.projects.require(id), dataPaths(dataDir).remoteUploads)),
      connectionTestRoutes({ catalog: services.catalog, defs: services.defs, env: options.env, dataDir, appConfig: () => store.appConfig.get() }),
      openApiRoutes(options.openApi ?? generatedOpenApi(VERSION)),
    ],
  });
  return {
    app,
    store,
    services,
    async stop() {
      await services.runs.shutdown();
      store.close();
    },
  };
}
