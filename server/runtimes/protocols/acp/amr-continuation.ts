/**
 * AMR compaction continuation (ACP extension v1). When Vela's OpenCode compacts mid-turn after tools already ran,
 * `session/prompt` fails with a structured OPENCODE_COMPACTION_CONTINUATION_INCOMPLETE error carrying the durable
 * session id and the exact user/assistant message cursor. If the agent advertised the extension (`loadSession` plus
 * `agentCapabilities._meta["com.open-design.nativeSessionContinue"].version === 1`) and every tool call we saw is
 * terminal, the transport lets the old process go quiet, loads the same session in a new process and sends
 * `_session/continue` with only that cursor — at most once per run. Every other case is a typed refusal.
 * The decision functions here are pure; the session drives the steps.
 */
import { isRecord } from "../../streams/tool-kind.ts";
import type { ProtocolFailure } from "../types.ts";

/** `agentCapabilities._meta` key of the extension. */
export const AMR_CONTINUE_CAPABILITY = "com.open-design.nativeSessionContinue";
/** The structured prompt error code that offers a continuation. */
export const CONTINUATION_INCOMPLETE_CODE = "OPENCODE_COMPACTION_CONTINUATION_INCOMPLETE";
/** The extension method sent to the new process. */
export const SESSION_CONTINUE_METHOD = "_session/continue";

/** Typed refusals (each fails the run with this code). */
export const AMR_REFUSAL_CODES = {
  unsupported: "AMR_CONTINUATION_UNSUPPORTED",
  invalidCursor: "AMR_CONTINUATION_INVALID_CURSOR",
  toolsPending: "AMR_CONTINUATION_TOOLS_PENDING",
  sessionMismatch: "AMR_CONTINUATION_SESSION_MISMATCH",
  limit: "AMR_CONTINUATION_LIMIT",
  noRespawn: "AMR_CONTINUATION_NO_RESPAWN",
  notQuiescent: "AMR_CONTINUATION_NOT_QUIESCENT",
  loadFailed: "AMR_CONTINUATION_LOAD_FAILED",
} as const;

/** The exact message cursor forwarded to `_session/continue`. */
export type ContinuationCursor = {
  version: 1;
  userMessageId: string;
  assistantMessageId: string;
  toolResultsCommitted: true;
};

/** What a failed prompt's error data says about continuation. */
export type ContinuationOffer =
  | { kind: "none" }
  | { kind: "invalid"; reason: string }
  | { kind: "cursor"; durableSessionId: string; cursor: ContinuationCursor };

/** True when an initialize result advertises `loadSession` and the v1 extension. */
export function supportsAmrContinuation(initializeResult: unknown): boolean {
  const caps = isRecord(initializeResult) && isRecord(initializeResult.agentCapabilities) ? initializeResult.agentCapabilities : null;
  if (!caps || caps.loadSession !== true || !isRecord(caps._meta)) return false;
  const extension = caps._meta[AMR_CONTINUE_CAPABILITY];
  return isRecord(extension) && extension.version === 1;
}

/** Reads the continuation offer out of a JSON-RPC error's `data`. */
export function readContinuationOffer(errorData: unknown): ContinuationOffer {
  if (!isRecord(errorData) || errorData.code !== CONTINUATION_INCOMPLETE_CODE) return { kind: "none" };
  const durableSessionId = errorData.openCodeSessionId;
  if (typeof durableSessionId !== "string" || durableSessionId === "") return { kind: "invalid", reason: "no durable session id" };
  const cursor = errorData.continuation;
  if (!isRecord(cursor)) return { kind: "invalid", reason: "no continuation cursor" };
  if (cursor.version !== 1) return { kind: "invalid", reason: `unsupported cursor version ${String(cursor.version)}` };
  if (typeof cursor.userMessageId !== "string" || cursor.userMessageId === "") return { kind: "invalid", reason: "cursor lacks userMessageId" };
  if (typeof cursor.assistantMessageId !== "string" || cursor.assistantMessageId === "") {
    return { kind: "invalid", reason: "cursor lacks assistantMessageId" };
  }
  if (cursor.toolResultsCommitted !== true) return { kind: "invalid", reason: "tool results are not committed" };
  return {
    kind: "cursor",
    durableSessionId,
    cursor: { version: 1, userMessageId: cursor.userMessageId, assistantMessageId: cursor.assistantMessageId, toolResultsCommitted: true },
  };
}

/** Facts the decision needs, gathered by the session. */
export type ContinuationFacts = {
  offer: Exclude<ContinuationOffer, { kind: "none" }>;
  /** The first process's initialize advertised the extension. */
  supported: boolean;
  /** A continuation already ran in this run. */
  alreadyContinued: boolean;
  canRespawn: boolean;
  /** Durable id the session/new (or load) result reported, if any. */
  sessionDurableId: string | null;
  /** Tool calls our own frames still show as running. */
  openToolIds: string[];
};

/** Null when the continuation may proceed, otherwise the typed refusal. */
export function continuationRefusal(facts: ContinuationFacts, originalMessage: string): ProtocolFailure | null {
  const refuse = (code: string, why: string): ProtocolFailure => ({ code, message: `${originalMessage} (continuation refused: ${why})`, retryable: false });
  if (!facts.supported) return refuse(AMR_REFUSAL_CODES.unsupported, "the agent does not advertise native session continue v1");
  if (facts.alreadyContinued) return refuse(AMR_REFUSAL_CODES.limit, "a continuation already ran in this run");
  if (facts.offer.kind === "invalid") return refuse(AMR_REFUSAL_CODES.invalidCursor, facts.offer.reason);
  if (facts.sessionDurableId !== null && facts.sessionDurableId !== facts.offer.durableSessionId) {
    return refuse(AMR_REFUSAL_CODES.sessionMismatch, "the error names another durable session");
  }
  if (facts.openToolIds.length > 0) return refuse(AMR_REFUSAL_CODES.toolsPending, `tool calls still running: ${facts.openToolIds.join(", ")}`);
  if (!facts.canRespawn) return refuse(AMR_REFUSAL_CODES.noRespawn, "no way to start a new agent process");
  return null;
}
