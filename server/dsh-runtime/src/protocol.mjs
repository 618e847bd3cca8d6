/**
 * Frames of the JSONL profile protocol v1: one JSON object per line, `v: 1` on every frame.
 * Profile → host frames are built here; host → profile commands are parsed here (tolerantly: a bad command is
 * answered with `protocol_error`, never a crash).
 */
import { CAPABILITIES, COMPATIBILITY_GENERATION, PLUGIN_VERSION, PROTOCOL_VERSION, RUNTIME_NAME } from "./compatibility.mjs";

export const V = 1;

/** Error codes this profile writes. */
export const ProfileErrorCode = Object.freeze({
  BUSY: "DSH_PROFILE_BUSY",
  INVALID_COMMAND: "DSH_PROFILE_INVALID_COMMAND",
  SESSION_CREATE_FAILED: "DSH_PROFILE_SESSION_CREATE_FAILED",
  RESUME_REJECTED: "DSH_PROFILE_RESUME_REJECTED",
  MISSING_TURN_END: "DSH_PROFILE_MISSING_TURN_END",
  TURN_FAILED: "DSH_PROFILE_TURN_FAILED",
  TURN_BLOCKED: "DSH_PROFILE_TURN_BLOCKED",
  MODELS_FAILED: "DSH_PROFILE_MODELS_FAILED",
});

/**
 * The handshake frame: `ready` opens `--stdio`, `probe` is the whole answer of `--probe`.
 * @param {"ready" | "probe"} type
 */
export function handshakeFrame(type) {
  return {
    v: V,
    type,
    runtime: RUNTIME_NAME,
    protocol_version: PROTOCOL_VERSION,
    plugin_version: PLUGIN_VERSION,
    compatibility_generation: COMPATIBILITY_GENERATION,
    capabilities: { ...CAPABILITIES },
  };
}

/**
 * @param {string | undefined} requestId
 * @param {string} code
 * @param {string} message
 */
export function protocolErrorFrame(requestId, code, message) {
  return requestId === undefined
    ? { v: V, type: "protocol_error", code, message }
    : { v: V, type: "protocol_error", request_id: requestId, code, message };
}

/** @param {unknown} value */
const isObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value);
/** @param {unknown} value */
const isNonEmptyString = (value) => typeof value === "string" && value.length > 0;

/**
 * Parse one host → profile line.
 * @param {string} line
 * @returns {{ ok: true, command: import("./index.mjs").HostCommand } | { ok: false, requestId?: string, message: string }}
 */
export function parseHostCommand(line) {
  /** @type {unknown} */
  let value;
  try {
    value = JSON.parse(line);
  } catch {
    return { ok: false, message: "command is not JSON" };
  }
  if (!isObject(value)) return { ok: false, message: "command is not a JSON object" };
  const requestId = isNonEmptyString(value.request_id) ? /** @type {string} */ (value.request_id) : undefined;
  const fail = (/** @type {string} */ message) => (requestId === undefined ? { ok: false, message } : { ok: false, requestId, message });
  if (value.v !== V) return /** @type {const} */ (fail(`unsupported protocol version ${JSON.stringify(value.v)}`));
  if (requestId === undefined) return /** @type {const} */ (fail("request_id must be a non-empty string"));
  if (value.type === "cancel") return { ok: true, command: { type: "cancel", requestId } };
  if (value.type !== "execute") return /** @type {const} */ (fail(`unknown command type ${JSON.stringify(value.type)}`));
  if (!isNonEmptyString(value.cwd)) return /** @type {const} */ (fail("execute.cwd must be a non-empty string"));
  if (typeof value.prompt !== "string") return /** @type {const} */ (fail("execute.prompt must be a string"));
  if (value.resume_session_id !== undefined && !isNonEmptyString(value.resume_session_id)) {
    return /** @type {const} */ (fail("execute.resume_session_id must be a non-empty string"));
  }
  /** @type {{ provider: string, id: string } | undefined} */
  let model;
  if (value.model !== undefined && value.model !== null) {
    const m = value.model;
    if (!isObject(m) || !isNonEmptyString(m.provider) || !isNonEmptyString(m.id)) {
      return /** @type {const} */ (fail("execute.model must be {provider, id}"));
    }
    model = { provider: /** @type {string} */ (m.provider), id: /** @type {string} */ (m.id) };
  }
  if (value.reasoning_effort !== undefined && value.reasoning_effort !== null && !isNonEmptyString(value.reasoning_effort)) {
    return /** @type {const} */ (fail("execute.reasoning_effort must be a string"));
  }
  return {
    ok: true,
    command: {
      type: "execute",
      requestId,
      cwd: /** @type {string} */ (value.cwd),
      prompt: value.prompt,
      resumeSessionId: /** @type {string | undefined} */ (value.resume_session_id),
      model,
      reasoningEffort: /** @type {string | undefined} */ (value.reasoning_effort ?? undefined),
      mcpServers: Array.isArray(value.mcp_servers) ? value.mcp_servers : [],
    },
  };
}
