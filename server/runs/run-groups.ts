/**
 * Run groups: one prompt sent to several agents at once, each run in a worktree of its own from one base (the
 * checkout as it was when the group started), so their results can be compared and the best one applied. Every
 * member is checked before any starts; when one cannot start after all (its machine failed), those already started
 * are canceled and their worktrees removed, and the group is refused as a whole.
 */
import type { CreateRunGroupRequest, CreateRunGroupResponse, RunGroupResponse, RunGroupRun } from "../contracts/worktrees.ts";
import type { RunSummary } from "../contracts/runs.ts";
import { OdError } from "../errors.ts";
import { newId } from "../store/ids.ts";
import type { Store } from "../store/store.ts";
import type { WorktreeBase, WorktreeService } from "../worktrees/worktree-service.ts";
import type { RunService } from "./run-service.ts";

export class RunGroups {
  constructor(
    private readonly store: Store,
    private readonly runs: RunService,
    private readonly worktrees: WorktreeService,
  ) {}

  async create(request: CreateRunGroupRequest): Promise<CreateRunGroupResponse> {
    const { agentIds, ...shared } = request;
    const each = (agentId: string) => ({ ...shared, agentId, isolation: "worktree" as const });
    for (const agentId of agentIds) await this.runs.check(each(agentId));
    const groupId = newId("grp");
    this.store.runGroups.add({ id: groupId, projectId: request.projectId, message: request.message, base: null });
    const started: CreateRunGroupResponse["runs"] = [];
    let base: WorktreeBase | undefined;
    try {
      for (const agentId of agentIds) {
        const run = await this.runs.create(each(agentId), { groupId, ...(base ? { base } : {}) });
        base ??= run.base;
        started.push({ runId: run.runId, agentId, conversationId: run.conversationId });
      }
    } catch (error) {
      await this.#undo(started);
      this.store.runGroups.delete(groupId);
      throw error;
    }
    if (base) this.store.runGroups.setBase(groupId, base.commit);
    return { groupId, runs: started };
  }

  get(groupId: string): RunGroupResponse {
    const group = this.store.runGroups.get(groupId);
    if (!group) throw new OdError("not_found", "NOT_FOUND", `no run group ${groupId}`);
    const runs = this.store.runGroups.runIds(groupId).flatMap((runId) => {
      const run = this.runs.get(runId);
      return run ? [this.#member(run)] : [];
    });
    return { groupId, projectId: group.projectId, message: group.message, createdAt: group.createdAt, base: group.base, runs };
  }

  #member(run: RunSummary): RunGroupRun {
    const { id: runId, agentId, conversationId } = run;
    const usage = this.store.runs.usageOf(runId);
    const recorded = this.store.runChanges.list(runId);
    const changes = recorded.source === null ? null : recorded.changes;
    return {
      runId,
      agentId,
      conversationId,
      status: run.status,
      model: usage?.model ?? run.model,
      durationMs: run.startedAt !== null && run.endedAt !== null ? Math.max(0, run.endedAt - run.startedAt) : null,
      inputTokens: usage?.inputTokens ?? null,
      outputTokens: usage?.outputTokens ?? null,
      costUsd: usage?.costUsd ?? null,
      reason: run.reason,
      changes: changes && {
        files: changes.length,
        additions: changes.reduce((sum, c) => sum + c.additions, 0),
        deletions: changes.reduce((sum, c) => sum + c.deletions, 0),
        created: changes.filter((c) => c.kind === "created").length,
        modified: changes.filter((c) => c.kind === "modified").length,
        deleted: changes.filter((c) => c.kind === "deleted").length,
      },
      worktree: run.worktree ?? null,
    };
  }

  async #undo(started: CreateRunGroupResponse["runs"]): Promise<void> {
    for (const { runId } of started) {
      await this.runs.cancel(runId);
      await this.worktrees.discard(runId).catch(() => undefined);
    }
  }
}
