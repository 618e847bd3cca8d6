/** Projects (a folder on disk), their conversations, and the messages in them. */
import { z } from "./zod.ts";
import { RunStatus } from "./runs.ts";

export const Project = z.object({
  id: z.string(),
  name: z.string(),
  /**
   * Absolute folder the agents run in: a local path, `ssh://[user@]host[:port]/absolute/path` (another machine,
   * reached with the system's OpenSSH client) or `docker://CONTAINER/absolute/path` (a running container).
   */
  path: z.string(),
  createdAt: z.number(),
});
export type Project = z.infer<typeof Project>;

export const CreateProjectRequest = z.strictObject({
  name: z.string().trim().min(1).max(120),
  /**
   * An existing folder (absolute), or one on another machine or in a container (`ssh://…`, `docker://…`; checked
   * there with one command, `REMOTE_UNREACHABLE` when that fails). Absent → a new folder `<data dir>/projects/<name>` is created.
   * od never creates a folder anywhere else.
   */
  path: z.string().min(1).optional(),
});

export const UpdateProjectRequest = z.strictObject({ name: z.string().trim().min(1).max(120) });

export const Conversation = z.object({
  id: z.string(),
  projectId: z.string(),
  title: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type Conversation = z.infer<typeof Conversation>;

export const CreateConversationRequest = z.strictObject({ title: z.string().trim().min(1).max(200).optional() });
export const UpdateConversationRequest = z.strictObject({ title: z.string().trim().min(1).max(200) });

/** The compact, persisted form of an assistant turn's events (no deltas, no live-only events). */
export const PersistedEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("status"), label: z.string(), detail: z.string().optional() }),
  z.object({ type: z.literal("text"), text: z.string() }),
  z.object({ type: z.literal("thinking"), text: z.string() }),
  z.object({
    type: z.literal("tool_use"),
    id: z.string(),
    name: z.string(),
    input: z.unknown(),
    kind: z.string(),
    path: z.string().optional(),
    /** The sub-agent's starting `tool_use` id, when a sub-agent made this call (so a reload shows the same tree). */
    parentToolUseId: z.string().optional(),
  }),
  z.object({
    type: z.literal("tool_result"),
    toolUseId: z.string(),
    content: z.string(),
    isError: z.boolean().optional(),
    exitCode: z.number().optional(),
    parentToolUseId: z.string().optional(),
  }),
  z.object({
    type: z.literal("usage"),
    inputTokens: z.number().optional(),
    outputTokens: z.number().optional(),
    costUsd: z.number().optional(),
    durationMs: z.number().optional(),
  }),
  z.object({ type: z.literal("error"), message: z.string(), code: z.string().optional() }),
  z.object({ type: z.literal("artifact"), name: z.string(), path: z.string().optional() }),
  /**
   * The turn's output was larger than od keeps with a message: what came before this marker is its beginning, the
   * text part after it its end, and `omittedChars` characters of answer text between them are not stored here.
   */
  z.object({
    type: z.literal("truncated"),
    /** Answer characters left out between the kept beginning and end. */
    omittedChars: z.number(),
    /** All answer characters the agent produced in this turn. */
    totalChars: z.number(),
    /** Tool calls, tool results, stretches of thinking and notices left out after the cut. */
    omittedEvents: z.number(),
    /** The whole answer text is on disk: `GET /api/runs/:id/output` serves it (in byte ranges with offset/limit). */
    fullOutput: z.boolean(),
  }),
]);
export type PersistedEvent = z.infer<typeof PersistedEvent>;

export { omittedTextLine } from "./omitted-text.ts";

/**
 * `GET /api/conversations/:id/messages?events=0` leaves each message's folded events out: the page shows a finished
 * turn from its run's stored events (`GET /api/runs/:id/history`), and a long answer's fold is megabytes it would
 * fetch and parse for nothing before the turn can be shown.
 */
export const MessageListQuery = z.object({ events: z.enum(["0", "false", "1", "true"]).optional() });

export const Message = z.object({
  id: z.string(),
  conversationId: z.string(),
  role: z.enum(["user", "assistant"]),
  /** The user's text, or the assistant's final answer text. */
  text: z.string(),
  events: z.array(PersistedEvent).optional(),
  runId: z.string().nullable(),
  runStatus: RunStatus.nullable(),
  agentId: z.string().nullable(),
  startedAt: z.number().nullable(),
  endedAt: z.number().nullable(),
  /** Project-relative files this turn produced. */
  files: z.array(z.string()),
  createdAt: z.number(),
});
export type Message = z.infer<typeof Message>;

/** A file in the project folder, for the files panel. */
export const ProjectFile = z.object({
  path: z.string(),
  size: z.number(),
  modifiedAt: z.number(),
  /** The run that last wrote it, when od saw it happen. */
  runId: z.string().nullable(),
});
export type ProjectFile = z.infer<typeof ProjectFile>;
