/**
 * Wire shapes of the JSONL profile protocol v1 (the profile is ours: server/dsh-runtime). Every stdout line is one
 * frame with `v: 1`. Inbound frames are validated here; unknown frame types pass through as `unknown` so a newer
 * profile's additions never break a run.
 */
import { z } from "../../../contracts/zod.ts";

const base = { v: z.literal(1) };
const runFrame = { ...base, request_id: z.string().min(1) };

/** The handshake: `ready` opens `--stdio`, `probe` answers `--probe`. */
export const HandshakeFrame = z.object({
  ...base,
  type: z.enum(["ready", "probe"]),
  runtime: z.string(),
  protocol_version: z.number(),
  plugin_version: z.string(),
  compatibility_generation: z.string().max(128).regex(/^[A-Za-z0-9._:-]+$/).optional(),
  capabilities: z.object({ session_resume: z.boolean(), session_cancel: z.boolean(), structured_events: z.boolean() }),
});
export type HandshakeFrame = z.infer<typeof HandshakeFrame>;

/** One model the harness offers; `reasoning_options` are that model's own effort choices. */
export const ModelEntry = z.object({
  provider: z.string().min(1),
  provider_name: z.string(),
  id: z.string().min(1),
  name: z.string(),
  reasoning_options: z.array(z.string()).optional(),
});

export const ModelsFrame = z.object({ ...base, type: z.literal("models"), runtime: z.string(), models: z.array(ModelEntry) });

export const SessionFrame = z.object({ ...runFrame, type: z.literal("session"), session_id: z.string().min(1), resumed: z.boolean() });
export const ThinkingFrame = z.object({ ...runFrame, type: z.literal("thinking"), content: z.string() });
export const TextFrame = z.object({ ...runFrame, type: z.literal("text"), content: z.string() });
/** `arguments` is a JSON string (parsed by the host, `{raw}` when it is not JSON). */
export const ToolCallFrame = z.object({ ...runFrame, type: z.literal("tool_call"), call_id: z.string(), name: z.string(), arguments: z.string() });
export const ToolResultFrame = z.object({
  ...runFrame,
  type: z.literal("tool_result"),
  call_id: z.string(),
  name: z.string(),
  output: z.string(),
  is_error: z.boolean(),
});
export const UsageFrame = z.object({
  ...runFrame,
  type: z.literal("usage"),
  provider: z.string(),
  model: z.string(),
  input_tokens: z.number(),
  output_tokens: z.number(),
  cache_read_tokens: z.number().optional(),
  cache_write_tokens: z.number().optional(),
});
const FrameError = z.object({ code: z.string(), message: z.string() });
/** The last frame of a run. `failed` requires `error`. */
export const ResultFrame = z
  .object({
    ...runFrame,
    type: z.literal("result"),
    status: z.enum(["completed", "cancelled", "failed"]),
    session_id: z.string(),
    output: z.string().optional(),
    stop_reason: z.string().optional(),
    resume_rejected: z.boolean(),
    error: FrameError.optional(),
  })
  .refine((frame) => frame.status !== "failed" || frame.error !== undefined, { message: "failed result requires error" });
/** A protocol-level complaint of the profile, for a request or for the process. */
export const ProtocolErrorFrame = z.object({ ...base, type: z.literal("protocol_error"), request_id: z.string().optional(), code: z.string(), message: z.string() });

const FRAME_SCHEMAS = {
  ready: HandshakeFrame,
  probe: HandshakeFrame,
  models: ModelsFrame,
  session: SessionFrame,
  thinking: ThinkingFrame,
  text: TextFrame,
  tool_call: ToolCallFrame,
  tool_result: ToolResultFrame,
  usage: UsageFrame,
  result: ResultFrame,
  protocol_error: ProtocolErrorFrame,
} as const;

type FrameSchemas = typeof FRAME_SCHEMAS;
/** Every frame the host understands, discriminated on `type`. */
export type ProfileFrame = { [K in keyof FrameSchemas]: z.infer<FrameSchemas[K]> }[keyof FrameSchemas];

export type FrameParse =
  | { kind: "frame"; frame: ProfileFrame }
  | { kind: "unknown"; type: string; value: Record<string, unknown> }
  | { kind: "malformed"; message: string }
  | { kind: "invalid"; message: string };

/** One stdout line → a frame. Never throws. */
export function parseFrame(line: string): FrameParse {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { kind: "malformed", message: `not JSON: ${line.slice(0, 120)}` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { kind: "invalid", message: "frame is not a JSON object" };
  const record = value as Record<string, unknown>;
  if (record.v !== 1) return { kind: "invalid", message: `unsupported frame version ${JSON.stringify(record.v)}` };
  if (typeof record.type !== "string") return { kind: "invalid", message: "frame has no type" };
  const schema = (FRAME_SCHEMAS as Record<string, z.ZodType>)[record.type];
  if (!schema) return { kind: "unknown", type: record.type, value: record };
  const parsed = schema.safeParse(record);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { kind: "invalid", message: `${record.type}: ${issue?.path.join(".") || "frame"} ${issue?.message ?? "is invalid"}` };
  }
  return { kind: "frame", frame: parsed.data as ProfileFrame };
}

/** Host → profile: start the run. */
export type ExecuteCommand = {
  v: 1;
  type: "execute";
  request_id: string;
  cwd: string;
  prompt: string;
  resume_session_id?: string;
  model?: { provider: string; id: string };
  reasoning_effort?: string;
  mcp_servers: [];
};
/** Host → profile: abort the run. */
export type CancelCommand = { v: 1; type: "cancel"; request_id: string };
export type HostCommand = ExecuteCommand | CancelCommand;
