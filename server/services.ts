/**
 * The engine, assembled once per process: agent catalog, projects and the run service over one store.
 * Shared by the daemon and by `od run` (which runs in-process, without a server).
 */
import { join } from "node:path";
import { createRunInputs } from "./inputs/run-inputs.ts";
import { dataPaths } from "./paths.ts";
import { bundledSkillsResolver, type BundledSkillFiles } from "./skills/bundled-root.ts";
import { CheckedFrontmatters } from "./skills/checked-frontmatter.ts";
import { SkillLibrary } from "./skills/library.ts";
import { ProjectService } from "./projects/project-service.ts";
import { loadAgentDefs } from "./runtimes/registry.ts";
import { AgentCatalog, discoverAcpModels, passDeadlineFromEnv } from "./runtimes/catalog.ts";
import { FileDetectionCache } from "./runtimes/detection-cache.ts";
import type { EnvMap, RuntimeAgentDef } from "./runtimes/types.ts";
import { RunGroups } from "./runs/run-groups.ts";
import { RunService, type AgentDirectory, type RunServiceDeps } from "./runs/run-service.ts";
import { ownProcessRunPacer } from "./runs/garbage-pacer.ts";
import { WorktreeService } from "./worktrees/worktree-service.ts";
import type { RemoteContext } from "./machines/remote-exec.ts";
import { checkpointSoon } from "./store/checkpoint-soon.ts";
import { DiskSpace } from "./store/disk-space.ts";
import type { Store } from "./store/store.ts";

export type Services = {
  catalog: AgentCatalog;
  runs: RunService;
  projects: ProjectService;
  skills: SkillLibrary;
  defs: readonly RuntimeAgentDef[];
  /** How projects on other machines are reached: this env, the data dir's ssh control-socket folder. */
  remote: RemoteContext;
  /** Isolated runs' worktrees, and run groups (one prompt, several agents). */
  worktrees: WorktreeService;
  runGroups: RunGroups;
  /** Whether the disk holding od's data has room: runs' writes come first, caches wait while it is full. */
  space: DiskSpace;
};

export type ServicesOptions = {
  store: Store;
  dataDir: string;
  env: EnvMap;
  /** Only these agents (od run detects just the one it needs). */
  onlyAgentIds?: string[];
  /** Probe only what starting a run needs: no auth probe, and no model discovery unless the run names a model. */
  detectForRun?: boolean | "with-model";
  runTimeouts?: RunServiceDeps["timeouts"];
  /** Checkpoint the WAL once each run has ended (the daemon; `od run` checkpoints when it closes the database). */
  checkpointAfterRuns?: boolean;
  /** Bundled skills embedded in the binary (server/skills/bundled-index.ts); absent → the source folder. */
  bundledSkillFiles?: BundledSkillFiles;
  /** Start projects' own MCP servers without their consent (`od run --trust-project-mcp`). */
  trustProjectMcp?: boolean;
  /** Its one run has the process to itself (`od run`): its event text is collected as it goes (`ownProcessRunPacer`). */
  runOwnsProcess?: boolean;
};

export function createServices(options: ServicesOptions): Services {
  // Local profiles live in this data dir unless OD_AGENT_PROFILES_CONFIG says otherwise.
  const env: EnvMap = { ...options.env, OD_DATA_DIR: options.dataDir };
  const remote: RemoteContext = { env, dataDir: options.dataDir };
  const loaded = loadAgentDefs(env, options.onlyAgentIds);
  const catalog = new AgentCatalog({
    defs: loaded.defs,
    profileDiagnostics: loaded.diagnostics,
    deps: () => ({
      env,
      discoverAcpModels,
      // Probes see what the user configured for the agent, as its runs do.
      configuredEnv: (id) => options.store.appConfig.get().agentCliEnv?.[id],
      machineEnv: (key) => options.store.appConfig.get().machineEnv?.[key],
      machineProbeTimeouts: (key) => options.store.appConfig.get().machineProbeTimeouts?.[key],
      ...(options.detectForRun ? { forRun: true } : {}),
      ...(options.detectForRun === "with-model" ? { forRunWithModel: true } : {}),
    }),
    cache: new FileDetectionCache(dataPaths(options.dataDir).agentCache),
    remote,
    // `od run` needs its one agent's real result, however long it takes to probe.
    deadlineMs: options.onlyAgentIds ? Infinity : passDeadlineFromEnv(env),
  });
  const directory: AgentDirectory = {
    list: () => catalog.list(),
    capabilities: (id) => catalog.capabilities.get(id),
    liveModels: (id) => catalog.models(id),
    probed: (id) => catalog.probed(id),
  };
  const paths = dataPaths(options.dataDir);
  const skills = new SkillLibrary({
    bundled: bundledSkillsResolver({ embedded: options.bundledSkillFiles, cacheRoot: join(options.dataDir, "bundled-skills") }),
    user: paths.skills,
    checked: new CheckedFrontmatters(paths.skillsCache),
  });
  const inputs = createRunInputs({ skills, userMcpPath: paths.mcp, remoteUploadsDir: paths.remoteUploads });
  const space = new DiskSpace(paths.spaceReserve);
  // The defs the catalog has, and every def when an id asked for names none: an unknown --agent is told the ids it
  // could have used (without probing them).
  // A run on another machine uses what the catalog's detection there found (`GET /api/agents?location=` fills it).
  const runDefs = loaded.defs.length < (options.onlyAgentIds?.length ?? 0) ? loadAgentDefs(env).defs : loaded.defs;
  const worktrees = new WorktreeService({ store: options.store, remote, localRoot: paths.worktrees });
  const runs = new RunService({
    store: options.store,
    worktrees,
    defs: runDefs,
    agents: directory,
    locations: catalog.locations,
    env,
    timeouts: options.runTimeouts,
    inputs,
    outputDir: paths.runOutput,
    remote,
    space,
    ...(options.trustProjectMcp ? { trustProjectMcp: true } : {}),
    ...(options.runOwnsProcess ? { loneRunPacer: ownProcessRunPacer } : {}),
    ...(options.checkpointAfterRuns ? { afterRun: checkpointSoon(options.store, space) } : {}),
  });
  if (options.checkpointAfterRuns) options.store.deferCheckpoints();
  const runGroups = new RunGroups(options.store, runs, worktrees);
  return { catalog, runs, projects: new ProjectService(options.store, options.dataDir, remote), skills, defs: loaded.defs, remote, worktrees, runGroups, space };
}
