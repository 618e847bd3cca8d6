/**
 * The failures od's own code reports to whoever asked (a route, `od run`, `od agents`): a stable `code` other tools
 * match on, a message for a person, and what kind of failure it is. The kind is the domain's word; the HTTP layer
 * alone turns it into a status (server/http/errors.ts), the CLI into its words and exit code.
 */
export type FailureKind =
  /** The request itself is wrong: a bad value, an unknown agent, a mode the agent cannot honour. */
  | "invalid"
  | "unauthorized"
  | "not_found"
  /** The request clashes with the state: a run already in progress, a file changed since it was shown. */
  | "conflict"
  | "too_large"
  /** Another machine (ssh host, container) failed or refused what od asked of it. */
  | "machine_failed"
  /** Another machine did not answer in time. */
  | "machine_timeout"
  /** od cannot take it now (shutting down). */
  | "unavailable"
  /** The data dir's disk is full. */
  | "storage_full";

export type FailureIssue = { path: (string | number)[]; message: string };

export class OdError extends Error {
  override name = "OdError";
  constructor(
    readonly kind: FailureKind,
    readonly code: string,
    message: string,
    readonly issues?: FailureIssue[],
    /** The files the failure is about (an apply's conflict). */
    readonly paths?: string[],
  ) {
    super(message);
  }
}
