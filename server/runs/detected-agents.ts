/**
 * The agents where a run goes, as the run service chooses among them: this machine's catalog, or what detection
 * found on another machine. A detection pass stops waiting for slow CLIs at its deadline and shows them as still
 * probing; a run for such an agent waits for its probes instead (they are bounded by the agent's own probe budget),
 * then starts, or is refused with what the probes found.
 */
import type { AgentInfo } from "../contracts/agents.ts";
import type { Machine } from "../machines/machine.ts";
import type { MachineAgents, MachineDetections } from "../runtimes/machine-detections.ts";
import { probesOutlastedDiagnostic } from "../runtimes/diagnostics.ts";
import type { RuntimeAgentDef } from "../runtimes/types.ts";

/** The agents where a run goes: this machine's catalog (no `where`), or another machine's detection. */
export type DetectedAgents = Pick<MachineAgents, "agents" | "capabilities" | "liveModels"> & {
  where?: string;
  /** Taken from a kept result, without probing now (another machine's). */
  kept?: boolean;
  /** One agent's real result once its running probes finish (at most its probe budget); undefined if they outlast it. */
  probed?(agentId: string): Promise<AgentInfo | undefined>;
};

/**
 * The agents on `machine` for a run there: this machine's catalog (its `list`, which waits at most its deadline), or
 * what detection found on the other machine, kept for a few minutes unless `fresh`.
 */
export async function detectedOn(machine: Machine, here: Directory & { list(): Promise<AgentInfo[]> }, others: MachineDetections, fresh = false): Promise<DetectedAgents> {
  return machine.kind === "local" ? { agents: await here.list(), ...directoryDetection(here) } : others.forRun(machine, { fresh });
}

/** What the run service asks of this machine's catalog (its `AgentDirectory`). */
type Directory = Pick<DetectedAgents, "capabilities" | "liveModels" | "probed">;

/** This machine's catalog as the agents a run chooses among (their list comes from its `list`). */
export function directoryDetection(agents: Directory): Directory {
  return {
    capabilities: (id) => agents.capabilities(id),
    liveModels: (id) => agents.liveModels(id),
    ...(agents.probed ? { probed: (id: string) => agents.probed!(id) } : {}),
  };
}

/**
 * `detected` with `agentId`'s real result in place of its still-probing stand-in, once its probes finish; when they
 * outlast their budget, the stand-in says so (the run is then refused with that, not with "still being probed").
 */
export async function awaitProbingAgent<T extends DetectedAgents>(detected: T, agentId: string | undefined, defs: readonly RuntimeAgentDef[]): Promise<T> {
  const shown = agentId ? detected.agents.find((info) => info.id === agentId) : undefined;
  const def = defs.find((candidate) => candidate.id === agentId);
  if (!shown || shown.state !== "probing" || !detected.probed || !def) return detected;
  const info: AgentInfo = (await detected.probed(shown.id)) ?? { ...shown, diagnostics: [probesOutlastedDiagnostic(def)] };
  return { ...detected, agents: detected.agents.map((agent) => (agent.id === info.id ? info : agent)) };
}
