/**
 * Conversations' worktrees: made for an isolated conversation's first run, kept for its later runs, applied to the
 * checkout or discarded on the person's word, listed with their size, removed with their conversation (a branch
 * holding commits the checkout lacks is kept then), pruned when od starts. Work on one project's repository is done
 * one operation at a time: two applies, or a worktree made while another is applied, never interleave there.
 */
import type { Project } from "../contracts/projects.ts";
import type {
  ApplyRunRequest,
  ApplyRunResponse,
  ProjectWorktree,
} from "../contracts/worktrees.ts";
import { OdError } from "../errors.ts";
import type { MachinePlace } from "../machines/machine.ts";
import { placeOf } from "../machines/machine-of.ts";
import type { RemoteContext } from "../machines/remote-exec.ts";
import type { Store } from "../store/store.ts";
import { worktreeInfo, type StoredWorktree } from "../store/worktrees-repo.ts";
import { applyWorktree, createWorktree, pruneWorktrees, removeWorktree, worktreeSizes, type NewWorktree, type WorktreeGitPlace } from "./worktree-git.ts";

export type WorktreeServiceDeps = {
  store: Store;
  remote: RemoteContext;
  /** Where worktrees of projects on this machine go (`<data dir>/worktrees`); elsewhere `~/.od/worktrees` there. */
  localRoot: string;
};

/** `od/<short run id>`: the run id's random part. */
export function worktreeBranch(runId: string): string {
  return `od/${runId.slice(-10)}`;
}

/** The project's folder inside a worktree (the project may be a subfolder of its repository). */
export function projectFolderIn(worktree: Pick<WorktreeGitPlace, "folder" | "prefix">): string {
  return worktree.prefix ? `${worktree.folder}/${worktree.prefix.replace(/\/$/, "")}` : worktree.folder;
}

/** Where a worktree starts: a commit, and how many of the checkout's uncommitted paths it carries over. */
export type WorktreeBase = { commit: string; carriedPaths: number };

export class WorktreeService {
  /** The last operation queued per project: the next one starts when it has settled. */
  readonly #queues = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: WorktreeServiceDeps) {}

  /**
   * A new worktree for the run `runId` of `project`: its branch from `base`, else from the checkout as it is now
   * (its uncommitted changes carried over). 400 `NOT_A_GIT_REPOSITORY` outside git.
   */
  async create(project: Project, place: MachinePlace, runId: string, base?: WorktreeBase): Promise<NewWorktree> {
    const short = runId.slice(-10);
    const made = await this.#inTurn(project.id, () =>
      createWorktree(place.machine, {
        projectFolder: place.folder,
        root: place.machine.kind === "local" ? this.deps.localRoot : "",
        name: `${project.id}/${short}`,
        branch: worktreeBranch(runId),
        ...(base ? { base: base.commit } : {}),
      }),
    );
    return base ? { ...made, carriedPaths: base.carriedPaths } : made;
  }

  /** Removes a worktree made for a run that did not start after all (its records were not written). Never throws. */
  async abandon(project: Project, place: MachinePlace, worktree: NewWorktree): Promise<void> {
    await this.#inTurn(project.id, () => removeWorktree(place.machine, place.folder, worktree, "force")).catch(() => undefined);
  }

  /** Brings the conversation's worktree into the checkout (see ApplyRunRequest). */
  async apply(runId: string, request: ApplyRunRequest): Promise<ApplyRunResponse> {
    const { project, place, worktree } = this.#forRun(runId);
    const message = request.mode === "uncommitted" ? "" : (request.message ?? `Merge ${worktree.branch} (od run ${runId})`);
    const applied = await this.#inTurn(project.id, () => {
      this.#refuseWhileRunning(worktree.conversationId);
      return applyWorktree(place.machine, place.folder, worktree, request.mode, message);
    });
    this.deps.store.worktrees.markApplied(worktree.conversationId, request.mode);
    return { applied: true, mode: request.mode, files: applied.files, ...(applied.commit ? { commit: applied.commit } : {}), worktree: this.#info(worktree.conversationId) };
  }

  /** Removes the conversation's worktree and deletes its branch: the person said so. */
  async discard(runId: string) {
    const { project, place, worktree } = this.#forRun(runId);
    const { branchDeleted } = await this.#inTurn(project.id, () => {
      this.#refuseWhileRunning(worktree.conversationId);
      return removeWorktree(place.machine, place.folder, worktree, "force");
    });
    this.deps.store.worktrees.markDiscarded(worktree.conversationId);
    return { discarded: true as const, branchDeleted, worktree: this.#info(worktree.conversationId) };
  }

  /** The project's worktrees not discarded, newest first, with their size on disk and their conversation's last run. */
  async list(project: Project): Promise<ProjectWorktree[]> {
    const { store } = this.deps;
    const worktrees = store.worktrees.ofProject(project.id);
    const { machine } = placeOf(project.path, this.deps.remote);
    const sizes = await worktreeSizes(machine, worktrees.map((w) => w.folder));
    return worktrees.map((worktree, i) => {
      const last = store.runs.list({ conversationId: worktree.conversationId })[0];
      const size = sizes?.[i];
      return {
        ...worktreeInfo(worktree),
        conversationId: worktree.conversationId,
        runId: last?.id ?? null,
        runStatus: last?.status ?? null,
        active: last ? last.status === "queued" || last.status === "running" : false,
        sizeBytes: size ?? null,
        exists: sizes ? size !== null : true,
        ...(sizes ? {} : { unreachable: true }),
      };
    });
  }

  /**
   * The conversation is going: its worktree goes with it. Its branch goes too unless it holds commits the checkout's
   * HEAD lacks (an agent's own commits, not applied): those are never deleted without the person's say. Returns the
   * branch kept, if any.
   */
  async removeForConversation(conversationId: string): Promise<{ keptBranch?: string }> {
    const worktree = this.deps.store.worktrees.ofConversation(conversationId);
    if (!worktree || worktree.state === "discarded") return {};
    this.#refuseWhileRunning(conversationId);
    const project = this.deps.store.projects.get(worktree.projectId);
    if (!project) return {};
    const place = placeOf(project.path, this.deps.remote);
    const { branchDeleted } = await this.#inTurn(project.id, () => removeWorktree(place.machine, place.folder, worktree, "keep-unapplied"));
    this.deps.store.worktrees.markDiscarded(conversationId);
    return branchDeleted ? {} : { keptBranch: worktree.branch };
  }

  /** The project is forgotten: each of its worktrees goes as with its conversation (best effort). */
  async removeForProject(projectId: string): Promise<void> {
    for (const worktree of this.deps.store.worktrees.ofProject(projectId)) {
      await this.removeForConversation(worktree.conversationId).catch(() => undefined);
    }
  }

  /**
   * od starting: `git worktree prune` in the checkout of every project on this machine with worktrees, so git
   * forgets the ones whose folders were removed by hand. Projects elsewhere are pruned when their worktrees are
   * next removed. Never throws.
   */
  async pruneAtStart(): Promise<void> {
    const { store } = this.deps;
    for (const projectId of store.worktrees.projectsWithWorktrees()) {
      const project = store.projects.get(projectId);
      if (!project) continue;
      const place = placeOf(project.path, this.deps.remote);
      if (place.machine.kind !== "local") continue;
      await this.#inTurn(projectId, () => pruneWorktrees(place.machine, place.folder)).catch(() => undefined);
    }
  }

  #forRun(runId: string): { project: Project; place: MachinePlace; worktree: StoredWorktree } {
    const { store } = this.deps;
    const run = store.runs.get(runId);
    if (!run) throw new OdError("not_found", "NOT_FOUND", `no run ${runId}`);
    const worktree = run.isolation === "worktree" ? store.worktrees.ofConversation(run.conversationId) : undefined;
    if (!worktree) throw new OdError("invalid", "NOT_ISOLATED", `run ${runId} worked in the project's folder, not in a worktree: there is nothing to apply or discard`);
    if (worktree.state === "discarded") throw new OdError("conflict", "WORKTREE_DISCARDED", `the worktree of run ${runId} (${worktree.branch}) was discarded`);
    const project = store.projects.get(run.projectId);
    if (!project) throw new OdError("not_found", "PROJECT_NOT_FOUND", `no project ${run.projectId}`);
    return { project, place: placeOf(project.path, this.deps.remote), worktree };
  }

  #refuseWhileRunning(conversationId: string): void {
    if (this.deps.store.runs.list({ conversationId, status: "active" }).length) {
      throw new OdError("conflict", "RUN_IN_PROGRESS", "a run of this conversation is working in its worktree; wait for it to end or cancel it");
    }
  }

  #info(conversationId: string) {
    return worktreeInfo(this.deps.store.worktrees.ofConversation(conversationId)!);
  }

  /** Runs `operation` once the project's earlier ones have settled. */
  #inTurn<T>(projectId: string, operation: () => Promise<T>): Promise<T> {
    const previous = this.#queues.get(projectId) ?? Promise.resolve();
    const next = previous.then(operation, operation);
    const settled = next.catch(() => undefined);
    this.#queues.set(projectId, settled);
    void settled.then(() => {
      if (this.#queues.get(projectId) === settled) this.#queues.delete(projectId);
    });
    return next;
  }
}
