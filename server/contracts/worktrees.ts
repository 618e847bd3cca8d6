/**
 * Isolated runs: a conversation whose runs work in a git worktree of their own (a new branch `od/<short run id>` from
 * the checkout's HEAD, the checkout's uncommitted changes carried over), whose changes are brought into the checkout
 * on the person's word (apply) or thrown away (discard); and run groups, one prompt sent to several agents at once,
 * each in its own worktree from the same base.
 */
import { z } from "./zod.ts";
import { PromptText } from "./prompt.ts";
import { PermissionMode } from "./approvals.ts";

/** Where a run works: in the project's folder (`none`, the default), or in a git worktree of its own. */
export const Isolation = z.enum(["none", "worktree"]);
export type Isolation = z.infer<typeof Isolation>;

/** What became of a worktree: still there (`active`), its changes brought into the checkout, or removed. */
export const WorktreeState = z.enum(["active", "applied", "discarded"]);
export type WorktreeState = z.infer<typeof WorktreeState>;

/** A conversation's worktree, as a run's summary and the project's list show it. */
export const WorktreeInfo = z.object({
  /** `od/<short run id>` of the conversation's first run. */
  branch: z.string(),
  /** The worktree's folder on the project's machine (under od's data dir there, never inside the repository). */
  folder: z.string(),
  /** The commit the worktree started from: the checkout's HEAD, or a commit on it holding the carried-over changes. */
  base: z.string(),
  /** The checkout's HEAD when the worktree was made. */
  head: z.string(),
  /** How many paths of the checkout's uncommitted changes the base carries over (0: it is HEAD itself). */
  carriedPaths: z.number().int().nonnegative(),
  state: WorktreeState,
  createdAt: z.number(),
  /** When its changes were last brought into the checkout, and how. */
  appliedAt: z.number().nullable(),
  appliedMode: z.enum(["uncommitted", "commit", "merge"]).nullable(),
  discardedAt: z.number().nullable(),
});
export type WorktreeInfo = z.infer<typeof WorktreeInfo>;

/** `GET /api/projects/:id/worktrees`: one per isolated conversation whose worktree was not discarded. */
export const ProjectWorktree = WorktreeInfo.extend({
  conversationId: z.string(),
  /** The conversation's latest run and its status. */
  runId: z.string().nullable(),
  runStatus: z.string().nullable(),
  /** Whether a run of the conversation is working in it now. */
  active: z.boolean(),
  /** Its size on disk in bytes; null when its folder is gone (or the machine did not answer: see `unreachable`). */
  sizeBytes: z.number().nullable(),
  exists: z.boolean(),
  unreachable: z.boolean().optional(),
});
export type ProjectWorktree = z.infer<typeof ProjectWorktree>;
export const ProjectWorktreesResponse = z.object({ worktrees: z.array(ProjectWorktree) });

export const ApplyMode = z.enum(["uncommitted", "commit", "merge"]);
export type ApplyMode = z.infer<typeof ApplyMode>;

/**
 * `POST /api/runs/:id/apply`: the run's conversation's worktree changes (against its base) into the checkout: as
 * uncommitted changes (default), one commit on the current branch (only the run's files, which must be as HEAD has
 * them), or a merge of the branch (its files committed on it first). A conflict is 409 `APPLY_CONFLICT` naming the
 * paths, and the checkout is left exactly as it was.
 */
export const ApplyRunRequest = z.discriminatedUnion("mode", [
  z.strictObject({ mode: z.literal("uncommitted") }),
  z.strictObject({ mode: z.literal("commit"), message: z.string().trim().min(1).max(10_000) }),
  z.strictObject({ mode: z.literal("merge"), message: z.string().trim().min(1).max(10_000).optional() }),
]);
export type ApplyRunRequest = z.infer<typeof ApplyRunRequest>;

export const ApplyRunResponse = z.object({
  applied: z.literal(true),
  mode: ApplyMode,
  /** Project-relative paths brought into the checkout. */
  files: z.array(z.string()),
  /** The commit made on the checkout's branch (`commit`, `merge`). */
  commit: z.string().optional(),
  worktree: WorktreeInfo,
});
export type ApplyRunResponse = z.infer<typeof ApplyRunResponse>;

export const DiscardRunResponse = z.object({
  discarded: z.literal(true),
  /** The branch was deleted (a discard always deletes it: the person said so). */
  branchDeleted: z.boolean(),
  worktree: WorktreeInfo,
});

/** `POST /api/run-groups`: one prompt to several agents, each in a worktree of its own from the same base. */
export const CreateRunGroupRequest = z.strictObject({
  projectId: z.string().min(1),
  message: PromptText,
  /** Two or more agents (one may be named more than once: the same task tried twice). */
  agentIds: z.array(z.string().min(1)).min(2).max(8),
  /** For every agent of the group (each must take it: else 400 naming the agent); absent: each agent's saved choice. */
  model: z.string().min(1).nullable().optional(),
  reasoning: z.string().min(1).nullable().optional(),
  attachments: z.array(z.string().min(1)).max(10).optional(),
  skillIds: z.array(z.string().min(1)).optional(),
  permissionMode: PermissionMode.optional(),
});
export type CreateRunGroupRequest = z.infer<typeof CreateRunGroupRequest>;

export const RunGroupMember = z.object({ runId: z.string(), agentId: z.string(), conversationId: z.string() });
export const CreateRunGroupResponse = z.object({ groupId: z.string(), runs: z.array(RunGroupMember) });
export type CreateRunGroupResponse = z.infer<typeof CreateRunGroupResponse>;

/** A group's run as `GET /api/run-groups/:id` gives it: status, time, what it used, what it changed. */
export const RunGroupRun = RunGroupMember.extend({
  status: z.string(),
  model: z.string().nullable(),
  durationMs: z.number().nullable(),
  inputTokens: z.number().nullable(),
  outputTokens: z.number().nullable(),
  costUsd: z.number().nullable(),
  reason: z.string().nullable(),
  /** The run's recorded changes (null until it has ended). */
  changes: z
    .object({ files: z.number().int(), additions: z.number().int(), deletions: z.number().int(), created: z.number().int(), modified: z.number().int(), deleted: z.number().int() })
    .nullable(),
  worktree: WorktreeInfo.nullable(),
});
export type RunGroupRun = z.infer<typeof RunGroupRun>;

export const RunGroupResponse = z.object({
  groupId: z.string(),
  projectId: z.string(),
  message: z.string(),
  createdAt: z.number(),
  /** The commit every run of the group started from. */
  base: z.string().nullable(),
  runs: z.array(RunGroupRun),
});
export type RunGroupResponse = z.infer<typeof RunGroupResponse>;
