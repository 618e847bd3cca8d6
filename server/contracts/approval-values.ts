/**
 * The approval vocabulary as plain values: `od run` and the run service use them before anything loads zod
 * (server/platform/load-on-first-use.ts); contracts/approvals.ts builds its schemas from the same lists.
 */

export const PERMISSION_MODES = ["bypass", "ask", "read-only"] as const;
export type PermissionModeValue = (typeof PERMISSION_MODES)[number];

/** Every decision a request offers, in the order a person sees them. */
export const APPROVAL_DECISIONS = ["allow_once", "allow_run", "deny"] as const;

/** How long a question of an `ask` run waits for a person before it is denied: 10 minutes unless configured. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 10 * 60_000;

export function isPermissionMode(value: unknown): value is PermissionModeValue {
  return typeof value === "string" && (PERMISSION_MODES as readonly string[]).includes(value);
}
