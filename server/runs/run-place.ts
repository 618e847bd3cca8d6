/**
 * Where a run does its work: its project's machine and folder, and everything about the run that depends on where
 * that is — how its changes are tracked, its inputs prepared, its agent found and given its environment, which of its
 * files exist afterwards, where its artifacts are written. Two implementations: in od's own process for a folder on
 * this machine (local-run-place.ts), and by short scripts on the machine for any other (scripted-run-place.ts).
 * `runPlaceOf` (run-place-of.ts) is the one place that chooses; the run service asks its place and never where it is.
 */
import type { NewRunEvent, RunSummary } from "../contracts/runs.ts";
import type { AgentEventOf } from "../contracts/events.ts";
import type { PreparedRunInputs, RunInputNote } from "../inputs/prepared-inputs.ts";
import type { RunInputsProvider, RunInputsRequest } from "../inputs/run-inputs.ts";
import type { Machine, MachinePlace } from "../machines/machine.ts";
import type { ChangeTracker } from "../projects/changes/tracker.ts";
import type { AgentLaunch } from "../runtimes/launch.ts";
import type { ArtifactSpool } from "../runtimes/streams/artifacts.ts";
import type { EnvMap, RuntimeAgentDef } from "../runtimes/types.ts";

/** What a run asks of its inputs, wherever they are prepared. */
export type WantedInputs = Omit<RunInputsRequest, "projectDir"> & { projectId: string };

export interface RunPlace {
  readonly machine: Machine;
  readonly folder: string;
  /**
   * What the run changes in its folder (git's view in a work tree, a bounded walk elsewhere); taken once, at the first
   * ask (on this machine the run service asks when the run is created, so it is read while the run is set up).
   */
  changes(note: (message: string) => void): Promise<ChangeTracker>;
  /** The run's skills, MCP servers and images, where the agent reads them. */
  prepareInputs(provider: RunInputsProvider, wanted: WantedInputs): Promise<PreparedRunInputs>;
  /** The agent's executable: resolved here, or its name for the machine's PATH when it starts there. */
  agentLaunch(def: RuntimeAgentDef): AgentLaunch | undefined;
  /** The agent's environment there, with the run's cookie. */
  agentEnv(def: RuntimeAgentDef, configured: Record<string, string> | undefined, runId: string): Record<string, string>;
  /** Whether a path a tool call named is inside the folder. */
  holds(path: string): boolean;
  /** The paths of `files` that exist in the folder now, sorted (or those `seenAfter` when that cannot be checked). */
  existingFiles(files: Iterable<string>, seenAfter: ReadonlySet<string>, note: (message: string) => void): Promise<string[]>;
  /** Writes a plain stream's artifacts into the folder. */
  placeArtifacts(spool: ArtifactSpool, note: (message: string) => void): Promise<AgentEventOf<"artifact">[]>;
  /**
   * What became of the clean-up of the conversation's earlier runs there, which their own events cannot say. `runs`
   * reads the conversation's runs (newest first): only a place whose runs are cleaned up remotely asks for them.
   */
  earlierCleanupNotices(runs: () => readonly RunSummary[], runId: string): NewRunEvent[];
  /** od's environment as read for settings of this run's agent (OD_CODEX_SANDBOX): the machine's settings win. */
  readonly settingsEnv: EnvMap;
  /** The Windows command-line limits apply to what is spawned here. */
  readonly spawnsHere: boolean;
}

export type RunPlaceDeps = {
  env: EnvMap;
  /** What the user configured for the run's machine (app-config `machineEnv`). */
  machineEnv: Record<string, string>;
  /** Resolves a def's executable on this machine. */
  resolveLaunch: (def: RuntimeAgentDef) => AgentLaunch | undefined;
};

export type { MachinePlace, RunInputNote };
