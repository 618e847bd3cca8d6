/**
 * What detection found on each other machine (an ssh host, a container), kept per machine for a few minutes:
 * `GET /api/agents?location=` and `od agents --on` fill it, and a run on a project there consults it, probing that
 * machine once when it has nothing fresh. Each probe is a detection pass with this machine's defs, probe limits and
 * deadline; a CLI still probing at the deadline shows its last complete result there, as the local catalog does.
 */
import type { AgentInfo } from "../contracts/agents.ts";
import { OdError } from "../errors.ts";
import { CapabilityMemory } from "./capabilities.ts";
import { DetectionPass } from "./detection-pass.ts";
import { MemoryDetectionCache } from "./detection-cache.ts";
import { timeoutsOn, type DetectionDeps } from "./detection.ts";
import { LiveModelMemory } from "./models.ts";
import { stillProbingInfo } from "./still-probing.ts";
import { probeBudgetMs } from "./probe-budgets.ts";
import type { RuntimeAgentDef, RuntimeModelOption } from "./types.ts";
import type { Machine } from "../machines/machine.ts";
import { machineDetectionDeps, unreachableInfos } from "./machine-detection.ts";

/** How long a machine's result is used by its runs without probing it again. */
export const MACHINE_DETECTION_TTL_MS = 5 * 60_000;

/** One machine's agents as a run there sees them. */
export type MachineAgents = {
  /** The machine in words (`host`, `container NAME`), for messages. */
  where: string;
  agents: AgentInfo[];
  /** Taken from a kept result, without probing now. */
  kept: boolean;
  capabilities(agentId: string): Record<string, boolean>;
  liveModels(agentId: string): RuntimeModelOption[] | undefined;
  /** One agent's real result once the probe running there has probed it (at most its probe budget); else the latest. */
  probed(agentId: string): Promise<AgentInfo | undefined>;
};

export type MachineDetectionsOptions = {
  defs: readonly RuntimeAgentDef[];
  /** Read at each probe: the daemon's env, what the user configured per agent, probe limits. */
  deps: () => Pick<DetectionDeps, "env" | "configuredEnv" | "machineEnv" | "machineProbeTimeouts" | "timeouts" | "forRun" | "forRunWithModel">;
  /** How long a pass waits for the slowest CLI there (`Infinity`: no limit). */
  deadlineMs: number;
  ttlMs?: number;
};

/** What is known of one machine: the last pass's list, and each agent's flags, models and last complete result. */
type MachineState = {
  /** The machine's key (its settings are kept under it). */
  key: string;
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

export class MachineDetections {
  readonly #options: MachineDetectionsOptions;
  readonly #states = new Map<string, MachineState>();
  readonly #passes = new Set<DetectionPass>();

  constructor(options: MachineDetectionsOptions) {
    this.#options = options;
  }

  /** Probe the machine now (or join the probe running there); the result is kept for its runs. */
  async detect(machine: Machine): Promise<AgentInfo[]> {
    const outcome = await this.#probe(machine);
    return outcome.reached ? outcome.agents : unreachableInfos(machine, this.#options.defs, this.#options.deps().env, outcome.why);
  }

  /**
   * The machine's agents for a run there: the kept result while it is fresh (unless `fresh`), else one probe now. A
   * machine that cannot be reached is a REMOTE_UNREACHABLE OdError (machine_failed, or machine_timeout when it did not answer in time).
   */
  async forRun(machine: Machine, options: { fresh?: boolean } = {}): Promise<MachineAgents> {
    const state = this.#state(machine);
    const ttlMs = this.#options.ttlMs ?? MACHINE_DETECTION_TTL_MS;
    const kept = !options.fresh && !!state.agents && !state.probing && Date.now() - state.at < ttlMs;
    if (!kept) {
      const outcome = await this.#probe(machine);
      if (!outcome.reached) {
        const where = machine.label;
        if (outcome.timedOut) throw new OdError("machine_timeout", "REMOTE_UNREACHABLE", `${where} did not answer: ${outcome.why}`);
        throw new OdError("machine_failed", "REMOTE_UNREACHABLE", `cannot reach ${where}: ${outcome.why || "no reason given"}`);
      }
    }
    return {
      where: machine.label,
      agents: state.agents ?? [],
      kept,
      capabilities: (id) => state.capabilities.get(id),
      liveModels: (id) => state.liveModels.get(id),
      probed: (id) => this.#probed(state, id),
    };
  }

  async #probed(state: MachineState, id: string): Promise<AgentInfo | undefined> {
    const def = this.#options.defs.find((candidate) => candidate.id === id);
    const pass = state.pass;
    if (!def || !pass) return state.agents?.find((agent) => agent.id === id);
    return (await pass.settled(id, probeBudgetMs(def, timeoutsOn(this.#options.deps(), state.key))))?.info;
  }

  /** Stop the probes still running anywhere (a short-lived process is done with them). */
  close(): void {
    for (const pass of this.#passes) pass.abort();
  }

  #state(machine: Machine): MachineState {
    const key = machine.key;
    let state = this.#states.get(key);
    if (!state) {
      state = { key, at: 0, capabilities: new CapabilityMemory(), liveModels: new LiveModelMemory(), lastGood: new MemoryDetectionCache() };
      this.#states.set(key, state);
    }
    return state;
  }

  #probe(machine: Machine): Promise<ProbeOutcome> {
    const state = this.#state(machine);
    if (state.probing) return state.probing;
    const probing = this.#runProbe(machine, state).finally(() => {
      if (state.probing === probing) state.probing = undefined;
    });
    state.probing = probing;
    return probing;
  }

  async #runProbe(machine: Machine, state: MachineState): Promise<ProbeOutcome> {
    const base = this.#options.deps();
    const reach = await machine.reach();
    if (!reach.reached) return reach;
    const deps = machineDetectionDeps(machine, { ...base, lastGood: (id) => state.lastGood.get(id) });
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
