/**
 * The unified AgentEvent union: what every stream parser and every JSON-RPC transport emits, whatever the CLI.
 * Names and fields follow the reference daemon's event set so a client of either can read our stream.
 * Beyond the reference, every `tool_use` carries a normalised `kind` and, where one exists, the affected `path`
 * relative to the run's cwd, so the UI can show "file written" the same way for every CLI.
 */
import { z } from "./zod.ts";
import { AgentQuestion, ApprovalDecision, ApprovalKind, ApprovalResolvedBy, QuestionAnswers } from "./approvals.ts";

/** What a tool call does, normalised across CLIs (Write/create/write_file/apply_patch add → file_write, …). */
export const ToolKind = z.enum([
  "file_write",
  "file_edit",
  "file_read",
  "command",
  "search",
  "web",
  "todo",
  "task",
  "mcp",
  "other",
]);
export type ToolKind = z.infer<typeof ToolKind>;

/** Token counts as the CLI reported them (snake_case, as on the wire of the reference daemon). */
export const Usage = z.object({
  input_tokens: z.number().optional(),
  output_tokens: z.number().optional(),
  thought_tokens: z.number().optional(),
  cached_read_tokens: z.number().optional(),
  cached_write_tokens: z.number().optional(),
  total_tokens: z.number().optional(),
});
export type Usage = z.infer<typeof Usage>;

/** Progress of the agent: `initializing`, `thinking`, `streaming`, `working`, `retrying`, … */
export const StatusEvent = z.object({
  type: z.literal("status"),
  label: z.string(),
  /** Model the CLI reported it is using. */
  model: z.string().optional(),
  /** Milliseconds from request to first visible token, on the `streaming` status. */
  ttftMs: z.number().optional(),
  /** Free-form extra text (warnings, unknown update kinds). */
  detail: z.string().optional(),
  /** Capture-style resume handle: the CLI minted this session id. */
  sessionId: z.string().optional(),
});

/** A piece of the assistant's visible answer. */
export const TextDeltaEvent = z.object({ type: z.literal("text_delta"), delta: z.string() });
/** A thinking block opens. */
export const ThinkingStartEvent = z.object({ type: z.literal("thinking_start") });
/** A piece of thinking text. */
export const ThinkingDeltaEvent = z.object({ type: z.literal("thinking_delta"), delta: z.string() });
/** A thinking block closes. */
export const ThinkingEndEvent = z.object({ type: z.literal("thinking_end") });
/** Cumulative thinking token estimate for the current block (claude). */
export const ThinkingTokensEvent = z.object({ type: z.literal("thinking_tokens"), tokens: z.number() });

/** The agent calls a tool. `input` is the parsed arguments (or `{raw}` when they were not JSON). */
export const ToolUseEvent = z.object({
  type: z.literal("tool_use"),
  id: z.string(),
  /** The CLI's own tool name (Write, apply_patch, bash, …). */
  name: z.string(),
  input: z.unknown(),
  /** Normalised category of the tool. */
  kind: ToolKind,
  /** Affected file, relative to the run's cwd when inside it (absolute otherwise). */
  path: z.string().optional(),
  startedAt: z.number().optional(),
  /** Set when a sub-agent made this call: the id of the `tool_use` (Claude `Task`/`Agent`) that started it. */
  parentToolUseId: z.string().optional(),
});

/** Streaming tool arguments as they are generated (live only, never persisted). */
export const ToolInputDeltaEvent = z.object({
  type: z.literal("tool_input_delta"),
  id: z.string(),
  name: z.string(),
  delta: z.string(),
});

/** The outcome of a tool call, matched to its `tool_use` by id. */
export const ToolResultEvent = z.object({
  type: z.literal("tool_result"),
  toolUseId: z.string(),
  content: z.string(),
  isError: z.boolean().optional(),
  /** A shell command's exit code, when the CLI reports one (never guessed). */
  exitCode: z.number().optional(),
  /** Set when the call was a sub-agent's: the id of the `tool_use` that started that sub-agent. */
  parentToolUseId: z.string().optional(),
});

/** Usage and cost, usually once at the end of a turn. */
export const UsageEvent = z.object({
  type: z.literal("usage"),
  usage: Usage.optional(),
  costUsd: z.number().optional(),
  durationMs: z.number().optional(),
  stopReason: z.string().optional(),
  isError: z.boolean().optional(),
  modelUsage: z.unknown().optional(),
  provider: z.string().optional(),
  model: z.string().optional(),
});

/** The main turn finished (claude: a non-tool_use stop reason). */
export const TurnEndEvent = z.object({ type: z.literal("turn_end"), stopReason: z.string() });

/** A file the daemon wrote from the agent's output (plain-stream `<artifact>` blocks). */
export const ArtifactEvent = z.object({
  type: z.literal("artifact"),
  source: z.literal("plain-stream"),
  /** File name written, e.g. `landing-page.html`. */
  name: z.string(),
  /** Path relative to the project folder. */
  path: z.string().optional(),
  identifier: z.string().optional(),
  artifactType: z.string().optional(),
});

/** Something went wrong inside the stream. `terminal` errors fail the run. */
export const ErrorEvent = z.object({
  type: z.literal("error"),
  message: z.string(),
  /** Stable code, e.g. `AGENT_PROMPT_TOO_LARGE`, `LINE_TOO_LONG`, `DSH_PROFILE_MISSING_RESULT`. */
  code: z.string().optional(),
  raw: z.unknown().optional(),
  terminal: z.boolean().optional(),
});

/**
 * The agent asks before it acts (a run in `ask` mode) and waits: answer with
 * `POST /api/runs/:id/approvals/:approvalId`. Unanswered, it is denied after the app config's `approvalTimeoutMs`.
 */
export const ApprovalRequestEvent = z.object({
  type: z.literal("approval_request"),
  approvalId: z.string(),
  /** The CLI's own tool name (Write, Bash, shell, …). */
  toolName: z.string(),
  kind: ApprovalKind,
  /** One line for people: the command, the file, the URL. */
  title: z.string(),
  input: z.unknown(),
  /** The answers this request takes: all three for an action; `allow_once` (answer) and `deny` (skip) for a question. */
  options: z.array(ApprovalDecision),
  /** A `question` request's questions, in order. */
  questions: z.array(AgentQuestion).optional(),
});

/** A question of a live run that waits for its answer (`GET /api/runs/:id` → `pendingApprovals`): its request event. */
export const PendingApproval = ApprovalRequestEvent.omit({ type: true }).extend({
  /** When the agent asked (ms since the epoch). */
  requestedAt: z.number(),
});
export type PendingApproval = z.infer<typeof PendingApproval>;

/** A request was answered, and by whom, so history and replays show who decided what. */
export const ApprovalResolvedEvent = z.object({
  type: z.literal("approval_resolved"),
  approvalId: z.string(),
  decision: ApprovalDecision,
  by: ApprovalResolvedBy,
  /** A `question` request's answers, as the agent got them. */
  answers: QuestionAnswers.optional(),
});

/** A wire record no parser understood, passed through so nothing is lost. */
export const RawEvent = z.object({ type: z.literal("raw"), line: z.string() });

export const AgentEvent = z.discriminatedUnion("type", [
  StatusEvent,
  TextDeltaEvent,
  ThinkingStartEvent,
  ThinkingDeltaEvent,
  ThinkingEndEvent,
  ThinkingTokensEvent,
  ToolUseEvent,
  ToolInputDeltaEvent,
  ToolResultEvent,
  UsageEvent,
  TurnEndEvent,
  ArtifactEvent,
  ErrorEvent,
  RawEvent,
  ApprovalRequestEvent,
  ApprovalResolvedEvent,
]);
export type AgentEvent = z.infer<typeof AgentEvent>;
export type AgentEventType = AgentEvent["type"];
export type AgentEventOf<T extends AgentEventType> = Extract<AgentEvent, { type: T }>;

/** Every event type name, for exhaustiveness tests and `od parse` docs. */
export const AGENT_EVENT_TYPES = AgentEvent.options.map((o) => o.shape.type.value) as AgentEventType[];
