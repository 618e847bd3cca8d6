/**
 * A run's place in its conversation's git worktree: the place of the worktree's project folder on the same machine,
 * with its changes read as the worktree against its base (cumulative over the conversation's runs, whatever the
 * agent committed) and the project's own `.od/` (its MCP list, uploaded images) read in the checkout.
 */
import type { RunSummary } from "../contracts/runs.ts";
import type { RunInputsProvider } from "../inputs/run-inputs.ts";
import type { ChangeTracker } from "../projects/changes/tracker.ts";
import type { ArtifactSpool } from "../runtimes/streams/artifacts.ts";
import type { RuntimeAgentDef } from "../runtimes/types.ts";
import { worktreeTracker, type WorktreeGitPlace } from "../worktrees/worktree-git.ts";
import type { RunPlace, WantedInputs } from "./run-place.ts";

export class WorktreeRunPlace implements RunPlace {
  #changes: ChangeTracker | undefined;

  constructor(
    /** The place of the project's folder inside the worktree. */
    private readonly inner: RunPlace,
    private readonly worktree: WorktreeGitPlace,
    /** The project's folder in the checkout. */
    private readonly checkoutFolder: string,
  ) {}

  get machine() {
    return this.inner.machine;
  }
  get folder() {
    return this.inner.folder;
  }
  get settingsEnv() {
    return this.inner.settingsEnv;
  }
  get spawnsHere() {
    return this.inner.spawnsHere;
  }

  /** Nothing to take before the run: the base is the worktree's start. */
  async changes(note: (message: string) => void): Promise<ChangeTracker> {
    return (this.#changes ??= worktreeTracker(this.machine, this.worktree, note));
  }

  prepareInputs(provider: RunInputsProvider, wanted: WantedInputs) {
    return this.inner.prepareInputs(provider, { ...wanted, ownFolder: this.checkoutFolder });
  }

  agentLaunch(def: RuntimeAgentDef) {
    return this.inner.agentLaunch(def);
  }

  agentEnv(def: RuntimeAgentDef, configured: Record<string, string> | undefined, runId: string) {
    return this.inner.agentEnv(def, configured, runId);
  }

  holds(path: string): boolean {
    return this.inner.holds(path);
  }

  existingFiles(files: Iterable<string>, seenAfter: ReadonlySet<string>, note: (message: string) => void) {
    return this.inner.existingFiles(files, seenAfter, note);
  }

  placeArtifacts(spool: ArtifactSpool, note: (message: string) => void) {
    return this.inner.placeArtifacts(spool, note);
  }

  earlierCleanupNotices(runs: () => readonly RunSummary[], runId: string) {
    return this.inner.earlierCleanupNotices(runs, runId);
  }
}
