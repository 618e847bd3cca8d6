/**
 * A run's place on a machine od reaches through a client (ssh, docker exec): each question is one short script there
 * (machines/machine.ts `exec`), the run's inputs are staged in a private folder there, and the agent is found on that
 * machine's PATH when it starts.
 */
import type { RunSummary } from "../contracts/runs.ts";
import type { RunInputsProvider } from "../inputs/run-inputs.ts";
import { staysInside } from "../machines/folder-paths.ts";
import type { Machine } from "../machines/machine.ts";
import type { ChangeTracker } from "../projects/changes/tracker.ts";
import { existingRemoteFiles } from "../remote/remote-existing.ts";
import { remoteArtifactPlacer } from "../remote/remote-artifacts.ts";
import { trackRemoteChanges } from "../remote/remote-changes.ts";
import { remoteAgentLaunch } from "../remote/remote-run-inputs.ts";
import { remoteAgentEnv } from "../runtimes/env.ts";
import type { ArtifactSpool } from "../runtimes/streams/artifacts.ts";
import type { EnvMap, RuntimeAgentDef } from "../runtimes/types.ts";
import { earlierCleanupNotices } from "./cleanup-notices.ts";
import type { RunPlace, RunPlaceDeps, WantedInputs } from "./run-place.ts";

export class ScriptedRunPlace implements RunPlace {
  readonly spawnsHere = false;
  #changes: Promise<ChangeTracker> | undefined;

  readonly settingsEnv: EnvMap;

  constructor(
    readonly machine: Machine,
    readonly folder: string,
    private readonly deps: RunPlaceDeps,
  ) {
    this.settingsEnv = { ...deps.env, ...deps.machineEnv };}

  /** Taken when the run starts: a snapshot there is a round trip, not worth making for a run refused before it. */
  changes(note: (message: string) => void): Promise<ChangeTracker> {
    return (this.#changes ??= trackRemoteChanges(this.machine, this.folder, note));
  }

  prepareInputs(provider: RunInputsProvider, wanted: WantedInputs) {
    return provider.prepareRemote({ ...wanted, machine: this.machine, folder: this.folder });
  }

  agentLaunch(def: RuntimeAgentDef) {
    return remoteAgentLaunch(def);
  }

  agentEnv(def: RuntimeAgentDef, configured: Record<string, string> | undefined, runId: string) {
    return remoteAgentEnv(def, this.deps.env, { ...this.deps.machineEnv, ...configured }, runId);
  }

  holds(path: string): boolean {
    return staysInside(path);
  }

  async existingFiles(files: Iterable<string>, seenAfter: ReadonlySet<string>, note: (message: string) => void): Promise<string[]> {
    const paths = [...new Set(files)];
    if (paths.length === 0) return [];
    const existing = await existingRemoteFiles(this.machine, this.folder, paths);
    if (existing) return existing.sort();
    note("could not check which of the run's files exist in the project folder; only those its change snapshot saw are listed");
    return paths.filter((path) => seenAfter.has(path)).sort();
  }

  placeArtifacts(spool: ArtifactSpool, note: (message: string) => void) {
    return spool.commitWith(remoteArtifactPlacer(this.machine, this.folder, note));
  }

  earlierCleanupNotices(runs: () => readonly RunSummary[], runId: string) {
    return earlierCleanupNotices(runs(), runId, this.machine.label);
  }
}
