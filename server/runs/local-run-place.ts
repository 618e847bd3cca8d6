/** A run's place on this machine: od touches the folder itself (git and the filesystem, in its own process). */
import type { RunInputsProvider } from "../inputs/run-inputs.ts";
import { resolveInsideProject } from "../machines/folder-paths.ts";
import type { Machine } from "../machines/machine.ts";
import { trackChanges, type ChangeTracker } from "../projects/changes/tracker.ts";
import { spawnEnvForAgent } from "../runtimes/env.ts";
import type { ArtifactSpool } from "../runtimes/streams/artifacts.ts";
import type { EnvMap, RuntimeAgentDef } from "../runtimes/types.ts";
import type { RunPlace, RunPlaceDeps, WantedInputs } from "./run-place.ts";

export class LocalRunPlace implements RunPlace {
  readonly spawnsHere = true;
  #changes: Promise<ChangeTracker> | undefined;

  readonly settingsEnv: EnvMap;

  constructor(
    readonly machine: Machine,
    readonly folder: string,
    private readonly deps: RunPlaceDeps,
  ) {
    this.settingsEnv = { ...deps.env, ...deps.machineEnv };
  }

  /**
   * Taken at the first ask: the run service asks as soon as the run is created, so the folder's state before the run
   * is read while the agent is chosen and the run recorded (in a git work tree its `git status` runs beside that
   * work). Nothing writes to the folder before the agent starts; a run refused before it starts drops it (marked
   * handled: were it ever to reject, the run that awaits it fails).
   */
  changes(): Promise<ChangeTracker> {
    if (!this.#changes) {
      this.#changes = trackChanges(this.folder, { env: this.deps.env });
      this.#changes.catch(() => undefined);
    }
    return this.#changes;
  }

  prepareInputs(provider: RunInputsProvider, { projectId: _projectId, ...wanted }: WantedInputs) {
    return provider.prepare({ ...wanted, projectDir: this.folder });
  }

  agentLaunch(def: RuntimeAgentDef) {
    return this.deps.resolveLaunch(def);
  }

  agentEnv(def: RuntimeAgentDef, configured: Record<string, string> | undefined, runId: string) {
    return spawnEnvForAgent(def, this.deps.env, { ...this.deps.machineEnv, ...configured }, runId);
  }

  holds(path: string): boolean {
    return resolveInsideProject(this.folder, path) !== undefined;
  }

  async existingFiles(files: Iterable<string>): Promise<string[]> {
    return [...new Set(files)].filter((path) => this.holds(path)).sort();
  }

  async placeArtifacts(spool: ArtifactSpool) {
    return spool.commit(this.folder);
  }

  earlierCleanupNotices() {
    return [];
  }
}
