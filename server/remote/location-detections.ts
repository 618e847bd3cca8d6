/**
 * What detection found on each remote location (an ssh host, a container), kept per location for a few minutes:
 * `GET /api/agents?location=` and `od agents --on` fill it, and a run on a project there consults it, probing that
 * location once when it has nothing fresh. Each probe is a detection pass with this machine's defs, probe limits and
 * deadline; a CLI still probing at the deadline shows its last complete result there, as the local catalog does.
 */
import type { AgentInfo } from "../contracts/agents.ts";
import { OdError } from "../errors.ts";
import { CapabilityMemory } from "../runtimes/capabilities.ts";
import { DetectionPass } from "../runtimes/detection-pass.ts";
import { MemoryDetectionCache } from "../runtimes/detection-cache.ts";
import type { DetectionDeps } from "../runtimes/detection.ts";
import { LiveModelMemory } from "../runtimes/models.ts";
import { stillProbingInfo } from "../runtimes/still-probing.ts";
import { probeBudgetMs } from "../runtimes/probe-budgets.ts";
import type { RuntimeAgentDef, RuntimeModelOption } from "../runtimes/types.ts";
import { describeLocation, locationKey, type RemoteLocation } from "../machines/machine-url.ts";
import { reachLocation, type RemoteContext } from "../machines/remote-exec.ts";
import { remoteDetectionDeps, unreachableInfos } from "./remote-detection.ts";

/** How long a location's result is used by its runs without probing it again. */
export const LOCATION_DETECTION_TTL_MS = 5 * 60_000;

/** One location's agents as a run there sees them. */
export type LocationAgents = {
  /** The location in words (`host`, `container NAME`), for messages. */
  where: string;
  agents: AgentInfo[];
  /** Taken from a kept result, without probing now. */
  kept: boolean;
  capabilities(agentId: string): Record<string, boolean>;
  liveModels(agentId: string): RuntimeModelOption[] | undefined;
  /** One agent's real result once the probe running there has probed it (at most its probe budget); else the latest. */
  probed(agentId: string): Promise<AgentInfo | undefined>;
};

export type LocationDetectionsOptions = {
  defs: readonly RuntimeAgentDef[];
  /** Read at each probe: the daemon's env, what the user configured per agent, probe limits. */
  deps: () => Pick<DetectionDeps, "env" | "configuredEnv" | "timeouts" | "forRun">;
  /** How locations are reached unless a call says otherwise (default: ssh/docker with the deps' env). */
  remote?: RemoteContext;
  /** How long a pass waits for the slowest CLI there (`Infinity`: no limit). */
  deadlineMs: number;
  ttlMs?: number;
};

/** What is known of one location: the last pass's list, and each agent's flags, models and last complete result. */
type LocationState = {
  agents?: AgentInfo[];
  /** When `agents` was taken (ms since the epoch). */
  at: number;
  capabilities: CapabilityMemory;
  liveModels: LiveModelMemory;
  lastGood: MemoryDetectionCache;
  /** The probe running there now, shared by every caller. */
  probing?: Promise<ProbeOutcome>;
  /** Its detection pass while any of its probes still run (past the deadline too). */
  pass?: DetectionPass;
};

type ProbeOutcome = { reached: true; agents: AgentInfo[] } | { reached: false; timedOut: boolean; why: string };

export class LocationDetections {
  readonly #options: LocationDetectionsOptions;
  readonly #states = new Map<string, LocationState>();
  readonly #passes = new Set<DetectionPass>();

  constructor(options: LocationDetectionsOptions) {
    this.#options = options;
  }

  /** Probe the location now (or join the probe running there); the result is kept for its runs. */
  async detect(location: RemoteLocation, context?: RemoteContext): Promise<AgentInfo[]> {
    const outcome = await this.#probe(location, context);
    return outcome.reached ? outcome.agents : unreachableInfos(location, this.#options.defs, this.#options.deps().env, outcome.why);
  }

  /**
   * The location's agents for a run there: the kept result while it is fresh (unless `fresh`), else one probe now. A
   * location that cannot be reached is a REMOTE_UNREACHABLE OdError (machine_failed, or machine_timeout when it did not answer in time).
   */
  async forRun(location: RemoteLocation, context?: RemoteContext, options: { fresh?: boolean } = {}): Promise<LocationAgents> {
    const state = this.#state(location);
    const ttlMs = this.#options.ttlMs ?? LOCATION_DETECTION_TTL_MS;
    const kept = !options.fresh && !!state.agents && !state.probing && Date.now() - state.at < ttlMs;
    if (!kept) {
      const outcome = await this.#probe(location, context);
      if (!outcome.reached) {
        const where = describeLocation(location);
        if (outcome.timedOut) throw new OdError("machine_timeout", "REMOTE_UNREACHABLE", `${where} did not answer: ${outcome.why}`);
        throw new OdError("machine_failed", "REMOTE_UNREACHABLE", `cannot reach ${where}: ${outcome.why || "no reason given"}`);
      }
    }
    return {
      where: describeLocation(location),
      agents: state.agents ?? [],
      kept,
      capabilities: (id) => state.capabilities.get(id),
      liveModels: (id) => state.liveModels.get(id),
      probed: (id) => this.#probed(state, id),
    };
  }

  async #probed(state: LocationState, id: string): Promise<AgentInfo | undefined> {
    const def = this.#options.defs.find((candidate) => candidate.id === id);
    const pass = state.pass;
    if (!def || !pass) return state.agents?.find((agent) => agent.id === id);
    return (await pass.settled(id, probeBudgetMs(def, this.#options.deps().timeouts)))?.info;
  }

  /** Stop the probes still running anywhere (a short-lived process is done with them). */
  close(): void {
    for (const pass of this.#passes) pass.abort();
  }

  #state(location: RemoteLocation): LocationState {
    const key = locationKey(location);
    let state = this.#states.get(key);
    if (!state) {
      state = { at: 0, capabilities: new CapabilityMemory(), liveModels: new LiveModelMemory(), lastGood: new MemoryDetectionCache() };
      this.#states.set(key, state);
    }
    return state;
  }

  #probe(location: RemoteLocation, context: RemoteContext | undefined): Promise<ProbeOutcome> {
    const state = this.#state(location);
    if (state.probing) return state.probing;
    const probing = this.#runProbe(location, state, context).finally(() => {
      if (state.probing === probing) state.probing = undefined;
    });
    state.probing = probing;
    return probing;
  }

  async #runProbe(location: RemoteLocation, state: LocationState, context: RemoteContext | undefined): Promise<ProbeOutcome> {
    const base = this.#options.deps();
    const remote = context ?? this.#options.remote ?? { env: base.env };
    const reach = await reachLocation(location, remote);
    if (!reach.reached) return reach;
    const deps = remoteDetectionDeps(location, { ...base, lastGood: (id) => state.lastGood.get(id) }, remote);
    const pass = new DetectionPass(this.#options.defs, deps, {
      deadlineMs: this.#options.deadlineMs,
      standIn: (def, waitedMs) => {
        const lastGood = state.lastGood.get(def.id);
        if (lastGood && !state.capabilities.has(def.id)) {
          state.capabilities.set(def.id, lastGood.capabilities);
          state.liveModels.remember(def.id, lastGood.liveModels);
        }
        return stillProbingInfo(def, base.env, waitedMs, lastGood);
      },
      onSettle: (agent) => {
        state.capabilities.set(agent.info.id, agent.capabilities);
        state.liveModels.remember(agent.info.id, agent.liveModels);
        state.lastGood.remember(agent, Date.now(), !!base.forRun);
      },
    });
    this.#passes.add(pass);
    state.pass = pass;
    // Probes still running at the deadline go on: their real results replace the stand-ins when they end.
    void pass.done.then(
      (agents) => {
        state.agents = agents.map((agent) => agent.info);
        state.at = Date.now();
      },
      () => undefined,
    ).finally(() => {
      this.#passes.delete(pass);
      if (state.pass === pass) state.pass = undefined;
    });
    await pass.ready;
    const agents = pass.snapshot();
    state.agents = agents;
    state.at = Date.now();
    return { reached: true, agents };
  }
}
