/**
 * Typed failures shared by the protocol transports. A transport throws `ProtocolFailureError` internally and turns
 * it into the session's `{status:"failed", error}` result plus one terminal `error` event.
 */
import type { AgentEventOf } from "../../contracts/events.ts";
import { isRecord } from "../streams/tool-kind.ts";
import type { ProtocolFailure } from "./types.ts";

/** Stable failure codes of the transports (AMR refusal codes live beside the continuation). */
export const PROTOCOL_FAILURE_CODES = {
  /** The agent reported a failed turn / prompt. */
  executionFailed: "AGENT_EXECUTION_FAILED",
  /** The agent's output ended before the turn finished (crash, kill). */
  closed: "AGENT_PROTOCOL_CLOSED",
  /** A required response was missing a field we cannot do without. */
  protocolError: "AGENT_PROTOCOL_ERROR",
  /** A protocol stage stayed silent past its budget. */
  stageTimeout: "AGENT_STAGE_TIMEOUT",
  /** A permission request offered no allowing option. */
  permissionUnanswerable: "AGENT_PERMISSION_UNANSWERABLE",
  /** The agent refused the permission answer od gave and the tool call never ran. */
  permissionRefused: "AGENT_PERMISSION_REFUSED",
  /** In an ask or read-only run the agent changed files or ran commands without asking first. */
  permissionModeNotHonoured: "PERMISSION_MODE_NOT_HONOURED",
  /** The native session could not be resumed (the run service may reseed). */
  resumeFailed: "AGENT_SESSION_RESUME_FAILED",
  /** pi rpc `new_session` with `parentSession` was refused. */
  piParentSessionFailed: "PI_PARENT_SESSION_FAILED",
} as const;

export class ProtocolFailureError extends Error {
  override name = "ProtocolFailureError";
  constructor(readonly failure: ProtocolFailure) {
    super(failure.message);
  }
}

/** Shorthand to throw a typed failure. */
export function fail(code: string, message: string, retryable?: boolean): never {
  throw new ProtocolFailureError(retryable === undefined ? { code, message } : { code, message, retryable });
}

/** The terminal `error` event announcing a failure. */
export function failureEvent(failure: ProtocolFailure): AgentEventOf<"error"> {
  return { type: "error", message: failure.message, code: failure.code, terminal: true };
}

/** Retryability advertised in a JSON-RPC error's `data` (`retryable` or `isRetryable`). */
export function retryableFromData(data: unknown): boolean | undefined {
  if (!isRecord(data)) return undefined;
  if (typeof data.retryable === "boolean") return data.retryable;
  if (typeof data.isRetryable === "boolean") return data.isRetryable;
  return undefined;
}

/** Resolves with `promise`, or rejects with a typed failure after `ms` (≤0: no bound). */
export function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => ProtocolFailure): Promise<T> {
  if (!(ms > 0)) return promise;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProtocolFailureError(onTimeout())), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
