/**
 * Runs: the request that starts one, the events its SSE stream carries, and the summary the API returns.
 * Every RunEvent has a per-run `id` that only increases (also across daemon restarts), so `Last-Event-ID`
 * replay is exact: a reconnecting client gets every event after the id it saw, none twice.
 */
import { z } from "./zod.ts";
import { AgentEvent, PendingApproval } from "./events.ts";
import { PromptText } from "./prompt.ts";
import { PermissionMode } from "./approvals.ts";
import { Isolation, WorktreeInfo } from "./worktrees.ts";

export const RunStatus = z.enum(["queued", "running", "succeeded", "failed", "canceled"]);
export type RunStatus = z.infer<typeof RunStatus>;

export const TERMINAL_RUN_STATUSES: ReadonlySet<RunStatus> = new Set(["succeeded", "failed", "canceled"]);

/** Why a run failed, coarse enough for the UI to offer the right fix. */
export const FailureCategory = z.enum(["auth", "quota", "upstream", "config", "timeout", "cancel", "crash", "unknown"]);
export type FailureCategory = z.infer<typeof FailureCategory>;

export { PromptText } from "./prompt.ts";

export const CreateRunRequest = z.strictObject({
  projectId: z.string().min(1),
  /** Continue this conversation; a new one is created when absent. */
  conversationId: z.string().min(1).optional(),
  /** The agent to run; absent → the configured agent if available, else the first available. */
  agentId: z.string().min(1).optional(),
  message: PromptText,
  model: z.string().min(1).nullable().optional(),
  reasoning: z.string().min(1).nullable().optional(),
  /** Project-relative paths of uploaded images. */
  attachments: z.array(z.string().min(1)).max(10).optional(),
  /** Skills to compose into the prompt (in addition to @-mentions in the message). */
  skillIds: z.array(z.string().min(1)).optional(),
  /**
   * How the agent's tool calls are treated; absent → the project's default, else the agent's, else `bypass`.
   * A mode the agent cannot honour is refused (400 `PERMISSION_MODE_UNSUPPORTED`), never run as `bypass`.
   */
  permissionMode: PermissionMode.optional(),
  /**
   * `worktree`: the run works in a git worktree of its own (a new branch `od/<short run id>` from the checkout's
   * HEAD, its uncommitted changes carried over), and so do the conversation's later runs; the checkout is untouched
   * until the run is applied. Absent: the conversation's own (`none` for a new one). A folder outside git is 400
   * `NOT_A_GIT_REPOSITORY`.
   */
  isolation: Isolation.optional(),
});
export type CreateRunRequest = z.infer<typeof CreateRunRequest>;

export const CreateRunResponse = z.object({ runId: z.string(), conversationId: z.string() });

export const RunInputRequest = z.strictObject({ message: PromptText });

const base = { id: z.number().int().nonnegative(), ts: z.number() };

/** The run started (re-sent for a reseeded attempt). */
export const RunStartEvent = z.object({
  ...base,
  type: z.literal("start"),
  runId: z.string(),
  agentId: z.string(),
  bin: z.string(),
  protocolVersion: z.literal(1),
  cwd: z.string(),
  projectId: z.string(),
  conversationId: z.string(),
  model: z.string().nullable(),
  reasoning: z.string().nullable(),
  /** 0 for the first attempt, 1 when a stale session was reseeded with the full transcript. */
  attemptIndex: z.number().int(),
  /** `native` when the agent continues its own session, `transcript` when the prompt carries the history. */
  resume: z.enum(["new", "native", "transcript"]),
});

/** One unified event from the agent's parser or transport. */
export const RunAgentEvent = z.object({ ...base, type: z.literal("agent"), event: AgentEvent });

/** Raw output the parser did not consume (plain stdout is already text deltas) — bounded chunks. */
export const RunStdoutEvent = z.object({ ...base, type: z.literal("stdout"), chunk: z.string() });
export const RunStderrEvent = z.object({ ...base, type: z.literal("stderr"), chunk: z.string() });

/** Something od noticed that is not an error of the run (skipped image, reseed, watchdog warning, …). */
export const RunDiagnosticEvent = z.object({
  ...base,
  type: z.literal("diagnostic"),
  kind: z.string(),
  message: z.string(),
  detail: z.unknown().optional(),
});

/**
 * Something the person should read about the run, neither a failure nor a detail for debugging: a project's own MCP
 * servers left out until approved (kind `mcp_consent`, with the servers and the hash to approve in `detail`).
 */
export const RunNoticeEvent = z.object({
  ...base,
  type: z.literal("notice"),
  kind: z.string(),
  message: z.string(),
  detail: z.unknown().optional(),
});

/** A typed failure, usually followed by `end` with status `failed`. */
export const RunErrorEvent = z.object({
  ...base,
  type: z.literal("error"),
  message: z.string(),
  error: z.object({ code: z.string(), message: z.string(), retryable: z.boolean().optional(), details: z.unknown().optional() }),
});

/** One failed tool call, as a run's warning names it. */
export const FailedToolCall = z.object({
  /** The CLI's own tool name (Bash, Write, apply_patch, …). */
  tool: z.string(),
  /** What it was asked to act on: the command, or the file (cut short). */
  target: z.string().optional(),
  /** The first line of what it reported (cut short). */
  error: z.string(),
});
export type FailedToolCall = z.infer<typeof FailedToolCall>;

/**
 * What a `succeeded` run must not hide: most of its tool calls failed (the agent answered anyway, often without
 * saying so). Also sent as a `diagnostic` (kind `tool_calls_failed`) and as a non-terminal agent `error`.
 */
export const RunWarning = z.object({
  /** `TOOL_CALLS_FAILED`. */
  code: z.string(),
  /** A sentence for people: how many calls failed, which, and the likely cause. */
  message: z.string(),
  /** Tool calls the run made, and how many of them failed. */
  toolCalls: z.number(),
  failedToolCalls: z.number(),
  /** The failed calls, in order (at most the first few). */
  failed: z.array(FailedToolCall),
  /** Why they most likely failed, when their text says (e.g. the agent's sandbox could not start there). */
  likelyCause: z.string().optional(),
  /** The line of output the likely cause rests on. */
  evidence: z.string().optional(),
  /** What the user can do about it. */
  guidance: z.string().optional(),
});
export type RunWarning = z.infer<typeof RunWarning>;

/** The run is over. Always the last event of a run. */
export const RunEndEvent = z.object({
  ...base,
  type: z.literal("end"),
  status: z.enum(["succeeded", "failed", "canceled"]),
  code: z.number().nullable(),
  signal: z.string().nullable(),
  failureCategory: FailureCategory.optional(),
  /** Finer reason, e.g. `empty_output`, `inactivity_timeout`, `daemon_restart`, `session_resume_expired`. */
  failureDetail: z.string().optional(),
  /** A sentence for people. */
  reason: z.string(),
  /** What the user can do about it (login command, …). */
  guidance: z.string().optional(),
  fixCommand: z.string().optional(),
  /** Project-relative files the run wrote. */
  files: z.array(z.string()),
  durationMs: z.number(),
  /** A succeeded run whose tool calls mostly failed says so here. */
  warning: RunWarning.optional(),
});

export const RunEvent = z.discriminatedUnion("type", [
  RunStartEvent,
  RunAgentEvent,
  RunStdoutEvent,
  RunStderrEvent,
  RunDiagnosticEvent,
  RunNoticeEvent,
  RunErrorEvent,
  RunEndEvent,
]);
export type RunEvent = z.infer<typeof RunEvent>;
export type RunEventType = RunEvent["type"];
export type RunEventOf<T extends RunEventType> = Extract<RunEvent, { type: T }>;
/** A RunEvent before the event log assigns its id and timestamp. */
export type NewRunEvent = RunEvent extends infer E ? (E extends RunEvent ? Omit<E, "id" | "ts"> : never) : never;

/**
 * A remote run's clean-up that did not finish with the run: the sweep of its processes on the machine or in the
 * container could not reach it in time. Its events say `cleanup_pending` (a diagnostic before `end`, which is always a
 * run's last event); this record then follows it: retried on the next contact with the location, periodically, and on
 * the next start of od, until the sweep reaches it.
 */
export const RunCleanup = z.object({
  /** `pending`: processes of the run may still be running there; `done`: a later sweep ended them. */
  status: z.enum(["pending", "done"]),
  /** When the clean-up began (ms since the epoch). */
  since: z.number(),
  /** Sweeps tried so far that ended (reached the location or gave up). */
  attempts: z.number(),
  /** Why the last sweep that gave up did not reach the location. */
  lastError: z.string().optional(),
  /** When a sweep reached the location and ended what was left of the run there. */
  finishedAt: z.number().optional(),
});
export type RunCleanup = z.infer<typeof RunCleanup>;

export const RunSummary = z.object({
  id: z.string(),
  projectId: z.string(),
  conversationId: z.string(),
  agentId: z.string(),
  model: z.string().nullable(),
  reasoning: z.string().nullable(),
  status: RunStatus,
  createdAt: z.number(),
  startedAt: z.number().nullable(),
  endedAt: z.number().nullable(),
  pid: z.number().nullable(),
  exitCode: z.number().nullable(),
  signal: z.string().nullable(),
  failureCategory: FailureCategory.nullable(),
  failureDetail: z.string().nullable(),
  reason: z.string().nullable(),
  errorCode: z.string().nullable(),
  files: z.array(z.string()),
  cancelRequested: z.boolean(),
  lastEventId: z.number(),
  /** Present only when the run's remote clean-up did not finish with it. */
  cleanup: RunCleanup.optional(),
  /** Where it worked: the project's folder, or its conversation's git worktree (`worktree` then says which). */
  isolation: Isolation,
  worktree: WorktreeInfo.optional(),
  /** The run group it belongs to (one prompt sent to several agents). */
  groupId: z.string().optional(),
  /** Questions of a live run's agent that wait for an answer (`GET /api/runs/:id`; absent on stored summaries). */
  pendingApprovals: z.array(PendingApproval).optional(),
});
export type RunSummary = z.infer<typeof RunSummary>;

export const ListRunsQuery = z.object({
  projectId: z.string().optional(),
  conversationId: z.string().optional(),
  /** A status, or `active` for every non-terminal one. */
  status: z.union([RunStatus, z.literal("active")]).optional(),
});

/** The `detail` of the `output_truncated` diagnostic that marks where a run's history leaves output out. */
export const OutputTruncatedDetail = z.object({
  /** Answer characters left out after the cut. */
  omittedChars: z.number().int().nonnegative(),
  /** All answer characters of the run. */
  totalChars: z.number().int().nonnegative(),
  /** The whole answer text is on disk: `GET /api/runs/:id/output` serves it. */
  fullOutput: z.boolean(),
});
export type OutputTruncatedDetail = z.infer<typeof OutputTruncatedDetail>;

/**
 * `GET /api/runs/:id/history`: a run's stored events, for folding with the same fold as its live stream (a reloaded
 * turn is the live turn). Adjacent deltas of one stream (answer text, thinking, one call's input, stdout, stderr) come
 * coalesced into one event with the first one's id and ts; past a few MB of such text a run's deltas are left out
 * after an `output_truncated` diagnostic. Empty for a run whose events were never stored.
 */
export const RunHistoryResponse = z.object({ runId: z.string(), events: z.array(RunEvent) });
export type RunHistoryResponse = z.infer<typeof RunHistoryResponse>;

/**
 * `GET /api/runs/:id/output`: a byte range of a run's whole answer text, kept on disk when the answer was larger than
 * its stored message (see the `truncated` persisted event). The response is the text itself (text/plain), with
 * `x-od-total-bytes` (the file's size) and `x-od-next-offset` (where the next page starts).
 */
export const RunOutputQuery = z.object({
  /** First byte to send (default 0). */
  offset: z.coerce.number().int().min(0).optional(),
  /** Most bytes to send (default: to the end). */
  limit: z.coerce.number().int().min(1).optional(),
});
