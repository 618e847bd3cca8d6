/**
 * Typed failures of the host side of the DSH profile protocol. Every protocol violation ends the run with one of
 * these codes on a terminal `error` event and in the session result.
 */
import type { ProtocolFailure } from "../types.ts";

export const DshProfileErrorCode = {
  /** Default: the profile broke the state machine (frame out of order, duplicate session, …). */
  PROTOCOL_ERROR: "DSH_PROFILE_PROTOCOL_ERROR",
  /** The handshake announced another runtime or protocol generation. */
  INCOMPATIBLE: "DSH_PROFILE_INCOMPATIBLE",
  /** The run's model is not `provider/model`. */
  INVALID_MODEL: "DSH_PROFILE_INVALID_MODEL",
  /** A resumed session came back with another id, or without `resumed: true`. */
  RESUME_MISMATCH: "DSH_PROFILE_RESUME_MISMATCH",
  /** The profile could not resume the handle: the caller clears it and reseeds with the full transcript. */
  RESUME_REJECTED: "DSH_PROFILE_RESUME_REJECTED",
  /** The session id changed mid-run. */
  SESSION_MISMATCH: "DSH_PROFILE_SESSION_MISMATCH",
  /** stdout ended without a `result`. */
  MISSING_RESULT: "DSH_PROFILE_MISSING_RESULT",
  /** One frame exceeded the 1 MiB limit. */
  FRAME_TOO_LARGE: "DSH_PROFILE_FRAME_TOO_LARGE",
  /** A line that is not JSON. */
  MALFORMED_FRAME: "DSH_PROFILE_MALFORMED_FRAME",
  /** JSON that is not a valid v1 frame. */
  INVALID_FRAME: "DSH_PROFILE_INVALID_FRAME",
  /** stdout ended in the middle of a frame. */
  TRUNCATED_FRAME: "DSH_PROFILE_TRUNCATED_FRAME",
} as const;
export type DshProfileErrorCode = (typeof DshProfileErrorCode)[keyof typeof DshProfileErrorCode];

/** Largest frame (one stdout line) the host accepts. */
export const MAX_FRAME_BYTES = 1024 * 1024;

/** A failure with a stable code; `code` is a DshProfileErrorCode or a `DSH_PROFILE_*` code the profile reported. */
export const dshFailure = (code: string, message: string): ProtocolFailure => ({ code, message });

/** Codes the profile reports are kept when they are in our namespace; anything else becomes the default code. */
export function profileCode(code: unknown): string {
  return typeof code === "string" && /^DSH_PROFILE_[A-Z0-9_]+$/.test(code) ? code : DshProfileErrorCode.PROTOCOL_ERROR;
}
