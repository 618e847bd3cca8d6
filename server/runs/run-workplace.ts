/**
 * Where a run works: the project's folder, or its conversation's git worktree (made for the conversation's first
 * isolated run, kept for its later ones). Decided in two steps around the agent's choice: whether the run is isolated
 * (contradictions refused before anything is chosen), then, once the run is accepted, its place.
 */
import type { Project } from "../contracts/projects.ts";
import type { CreateRunRequest } from "../contracts/runs.ts";
import { OdError } from "../errors.ts";
import type { MachinePlace } from "../machines/machine.ts";
import { loadOnFirstUse } from "../platform/load-on-first-use.ts";
import type { Store } from "../store/store.ts";
import type { StoredWorktree } from "../store/worktrees-repo.ts";
import type { NewWorktree } from "../worktrees/worktree-git.ts";
import { projectFolderIn, type WorktreeBase, type WorktreeService } from "../worktrees/worktree-service.ts";
import { runPlaceOf } from "./run-place-of.ts";
import type { RunPlace, RunPlaceDeps } from "./run-place.ts";
import type * as WorktreeRunPlaceModule from "./worktree-run-place.ts";

/** A worktree's place (and the git plumbing under it) is evaluated for the first run in a worktree. */
const worktreeRunPlace = loadOnFirstUse<typeof WorktreeRunPlaceModule>(import.meta.url, "./worktree-run-place.ts", () => require("./worktree-run-place.ts"));

/** The first step's answer: the conversation's worktree if it has one, and the project's folder's place if not isolated. */
export type WorkplacePlan = { machinePlace: MachinePlace; placeDeps: RunPlaceDeps; kept?: StoredWorktree; isolated: boolean; place?: RunPlace };

/** Where the run works; `made` when its worktree was made for it (removed again should the run not be recorded). */
export type Workplace = { place: RunPlace; worktree?: StoredWorktree | NewWorktree; made?: NewWorktree };

export class RunWorkplaces {
  constructor(private readonly deps: { store: Store; worktrees: WorktreeService }) {}

  /**
   * Whether the run works in a worktree: always in a conversation that has one, never in one whose runs worked in the
   * project's folder, a new conversation as asked (400 `ISOLATION_MISMATCH` for a contradiction, 409
   * `WORKTREE_DISCARDED` for a discarded one). A run in the project's folder gets its place now: on this machine its
   * folder's state before the run is read while the agent is chosen.
   */
  plan(request: CreateRunRequest, machinePlace: MachinePlace, placeDeps: RunPlaceDeps): WorkplacePlan {
    const { store } = this.deps;
    const kept = request.conversationId ? store.worktrees.ofConversation(request.conversationId) : undefined;
    if (kept) {
      if (request.isolation === "none") throw new OdError("invalid", "ISOLATION_MISMATCH", "this conversation's runs work in its worktree; start a new conversation to run in the project's folder");
      if (kept.state === "discarded") throw new OdError("conflict", "WORKTREE_DISCARDED", `this conversation's worktree (${kept.branch}) was discarded; start a new conversation`);
    } else if (request.isolation === "worktree" && request.conversationId && store.runs.list({ conversationId: request.conversationId }).length > 0) {
      throw new OdError("invalid", "ISOLATION_MISMATCH", "this conversation's runs work in the project's folder; start a new conversation to run in a worktree");
    }
    const isolated = kept !== undefined || request.isolation === "worktree";
    if (isolated) return { machinePlace, placeDeps, isolated, ...(kept ? { kept } : {}) };
    const place = runPlaceOf(machinePlace, placeDeps);
    if (place.spawnsHere) void place.changes(() => undefined).catch(() => undefined);
    return { machinePlace, placeDeps, isolated, place };
  }

  /** The run's place: the planned one, or its worktree's (made now, from `base` if given, for a new conversation). */
  async settle(plan: WorkplacePlan, project: Project, runId: string, base?: WorktreeBase): Promise<Workplace> {
    if (plan.place) return { place: plan.place };
    const made = plan.kept ? undefined : await this.deps.worktrees.create(project, plan.machinePlace, runId, base);
    const worktree = plan.kept ?? made!;
    const inner = runPlaceOf({ machine: plan.machinePlace.machine, folder: projectFolderIn(worktree) }, plan.placeDeps);
    return { place: new (worktreeRunPlace().WorktreeRunPlace)(inner, worktree, plan.machinePlace.folder), worktree, ...(made ? { made } : {}) };
  }

  /** A worktree made for a run that was not recorded after all goes again. */
  async abandon(workplace: Workplace, project: Project, plan: WorkplacePlan): Promise<void> {
    if (workplace.made) await this.deps.worktrees.abandon(project, plan.machinePlace, workplace.made);
  }
}
