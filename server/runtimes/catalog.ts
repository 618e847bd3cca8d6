/**
 * The in-process agent catalog: the latest detection pass (AgentInfo list, capability map, live models), with
 * single-flight scans so concurrent callers (startup warm-up, the HTTP list, the SSE stream, rescan) share one pass.
 */
import type { Machine } from "../machines/machine.ts";
import { machineAt } from "../machines/machine-of.ts";
import type { RemoteContext } from "../machines/remote-exec.ts";
import { MachineDetections } from "./machine-detections.ts";
import type { AgentDiagnostic, AgentInfo } from "../contracts/agents.ts";
import type { EnvMap, RuntimeAgentDef, RuntimeModelOption } from "./types.ts";
import { loadAgentDefs } from "./registry.ts";
import { CapabilityMemory } from "./capabilities.ts";
import { LiveModelMemory } from "./models.ts";
import { timeoutsOn, type AcpModelDiscoverer, type DetectionDeps } from "./detection.ts";
import { LOCAL_MACHINE_KEY } from "../machines/local-machine.ts";
import { DetectionPass } from "./detection-pass.ts";
import { FileDetectionCache, MemoryDetectionCache, type DetectionCache } from "./detection-cache.ts";
import { stillProbingInfo } from "./still-probing.ts";
import { probeBudgetMs } from "./probe-budgets.ts";

/** ACP model discovery, its JSON-RPC client loaded when a probe first needs it (never, for most `od run`s). */
export const discoverAcpModels: AcpModelDiscoverer = async (options) => (await import("./protocols/acp/discover-models.ts")).discoverAcpModels(options);

/** How long a pass waits for the slowest CLI before reporting it as still probing (its probes go on). */
export const DEFAULT_PASS_DEADLINE_MS = 10_000;

/** `OD_DETECTION_DEADLINE_MS`: a positive number of ms, ≤ 0 to wait for every CLI; else the default. */
export function passDeadlineFromEnv(env: EnvMap): number {
  const raw = env.OD_DETECTION_DEADLINE_MS?.trim();
  const value = raw ? Number(raw) : Number.NaN;
  if (!Number.isFinite(value)) return DEFAULT_PASS_DEADLINE_MS;
  return value > 0 ? value : Infinity;
}

export type AgentCatalogOptions = {
  defs: readonly RuntimeAgentDef[];
  /** Read at the start of each pass, so env changes (a new `*_BIN`) apply on rescan. */
  deps: () => DetectionDeps;
  /** Local-profile problems to report alongside the list. */
  profileDiagnostics?: readonly AgentDiagnostic[];
  /** Last-good results (default: this process only; the daemon and `od agents` share a file in the data dir). */
  cache?: DetectionCache;
  /** How long `list`, `rescan` and `warm` wait for the slowest CLI (default 10 s; `Infinity`: no limit). */
  deadlineMs?: number;
  /** How `machineAt` reaches other machines and containers (default: ssh/docker with the deps' env). */
  remote?: RemoteContext;
};

/** Holds the latest detection results of this process. */
export class AgentCatalog {
  readonly defs: readonly RuntimeAgentDef[];
  readonly profileDiagnostics: readonly AgentDiagnostic[];
  readonly capabilities = new CapabilityMemory();
  readonly liveModels = new LiveModelMemory();
  /** What detection found on other machines and in containers, kept for the runs there. */
  readonly locations: MachineDetections;
  #deps: () => DetectionDeps;
  readonly #cache: DetectionCache;
  readonly #deadlineMs: number;
  readonly #remote: RemoteContext | undefined;
  #latest: AgentInfo[] | undefined;
  #latestAt = 0;
  #current: DetectionPass | undefined;

  constructor(options: AgentCatalogOptions) {
    this.defs = options.defs;
    this.#deps = options.deps;
    this.profileDiagnostics = options.profileDiagnostics ?? [];
    this.#cache = options.cache ?? new MemoryDetectionCache();
    this.#deadlineMs = options.deadlineMs ?? DEFAULT_PASS_DEADLINE_MS;
    this.#remote = options.remote;
    this.locations = new MachineDetections({ defs: this.defs, deps: () => this.#deps(), deadlineMs: this.#deadlineMs });
  }

  /** The machine a URL names (`ssh://host`, `docker://c`, with or without a folder), reached as this catalog's runs are. */
  machineAt(url: string): Machine {
    return machineAt(url, this.#remote ?? { env: this.#deps().env });
  }

  #start(): DetectionPass {
    if (this.#current) return this.#current;
    const deps: DetectionDeps = { ...this.#deps(), lastGood: (id) => this.#cache.get(id) };
    const pass = new DetectionPass(this.defs, deps, {
      deadlineMs: this.#deadlineMs,
      standIn: (def, waitedMs) => this.#standIn(def, deps, waitedMs),
      onSettle: (agent) => {
        this.capabilities.set(agent.info.id, agent.capabilities);
        this.liveModels.remember(agent.info.id, agent.liveModels);
        // A run-only pass skips models and auth: kept as a partial result, which never replaces a whole one.
        this.#cache.remember(agent, Date.now(), !!deps.forRun);
      },
    });
    this.#current = pass;
    void pass.done.then(
      (agents) => {
        this.#latest = agents.map((agent) => agent.info);
        this.#latestAt = Date.now();
      },
      () => undefined,
    ).finally(() => {
      if (this.#current === pass) this.#current = undefined;
    });
    return pass;
  }

  /** Until a def settles: its last-good result (whose flags and models runs may use meanwhile), or `probing`. */
  #standIn(def: RuntimeAgentDef, deps: DetectionDeps, waitedMs: number): AgentInfo {
    const lastGood = this.#cache.get(def.id);
    if (lastGood && !this.capabilities.has(def.id)) {
      this.capabilities.set(def.id, lastGood.capabilities);
      this.liveModels.remember(def.id, lastGood.liveModels);
    }
    return stillProbingInfo(def, deps.env, waitedMs, lastGood);
  }

  /** Start a pass in the background unless one is running (startup warm-up); resolves when it is ready. */
  warm(): Promise<void> {
    return this.#start().ready;
  }

  /** Latest results; waits (up to the deadline) for a running pass, or runs the first one. */
  async list(): Promise<AgentInfo[]> {
    if (!this.#current && this.#latest) return this.#latest;
    const pass = this.#start();
    await pass.ready;
    return pass.snapshot();
  }

  /** A fresh pass (or the one already running); concurrent callers share it. Waits up to the deadline. */
  async rescan(): Promise<AgentInfo[]> {
    const pass = this.#start();
    await pass.ready;
    return pass.snapshot();
  }

  /** Stop the running passes' probes, here and on other locations (a short-lived process is done with the catalog). */
  close(): void {
    this.#current?.abort();
    this.locations.close();
  }

  /**
   * Results of the running pass, each as it settles; or of a pass finished within `maxAgeMs` (every page load
   * opens this stream: replaying a fresh result spares probing every CLI again); else of a new pass.
   */
  stream(maxAgeMs = 30_000): AsyncGenerator<AgentInfo> {
    if (!this.#current && this.#latest && Date.now() - this.#latestAt < maxAgeMs) return replay(this.#latest);
    return this.#start().follow();
  }

  /**
   * The agents on a machine: this one's list, or detection there with the same defs, probe limits, deadline and
   * per-agent env as here, probed now (a probe already running there is joined) and kept for the runs there
   * (`locations`).
   */
  detectOn(machine: Machine): Promise<AgentInfo[]> {
    return machine.kind === "local" ? this.list() : this.locations.detect(machine);
  }

  /**
   * One agent's real result: once the running pass has probed it (waiting at most its probe budget), else the
   * latest. Undefined when its probes outlast their budget. What a run for an agent shown as still probing waits for.
   */
  async probed(id: string): Promise<AgentInfo | undefined> {
    const def = this.defs.find((candidate) => candidate.id === id);
    const pass = this.#current;
    if (!def || !pass) return this.peek(id);
    return (await pass.settled(id, probeBudgetMs(def, timeoutsOn(this.#deps(), LOCAL_MACHINE_KEY))))?.info;
  }

  /** Latest info of one agent, without waiting. */
  peek(id: string): AgentInfo | undefined {
    return this.#latest?.find((agent) => agent.id === id);
  }

  /** Live models of an agent from the last pass (model-id validation). */
  models(id: string): RuntimeModelOption[] | undefined {
    return this.liveModels.get(id);
  }
}

/** What the user configured that detection reads: per agent, and per machine (env and probe limits). */
export type DetectionSettings = Pick<DetectionDeps, "configuredEnv" | "machineEnv" | "machineProbeTimeouts">;

/**
 * The catalog of this process: shipped defs + the local profiles of `env`'s data dir (OD_DATA_DIR), probed under `env`
 * plus what the user configured per agent and per machine, its last-good results kept in `cacheFile` when given.
 */
export function createAgentCatalog(env: EnvMap = process.env, options: DetectionSettings & { cacheFile?: string } = {}): AgentCatalog {
  const { cacheFile, ...settings } = options;
  const { defs, diagnostics } = loadAgentDefs(env);
  return new AgentCatalog({
    defs,
    profileDiagnostics: diagnostics,
    deps: () => ({ env, discoverAcpModels, ...settings }),
    ...(cacheFile ? { cache: new FileDetectionCache(cacheFile) } : {}),
    deadlineMs: passDeadlineFromEnv(env),
  });
}

async function* replay(agents: readonly AgentInfo[]): AsyncGenerator<AgentInfo> {
  yield* agents;
}
