/** Failure codes for codex app-server `error` notifications, from `codexErrorInfo` first, message text second. */
import type { CodexErrorInfo } from "./generated/v2/CodexErrorInfo";
import { isRecord } from "../../streams/tool-kind.ts";

/** `AGENT_AUTH_REQUIRED`, `RATE_LIMITED`, `UPSTREAM_UNAVAILABLE` or `AGENT_EXECUTION_FAILED`. */
export function codexErrorCode(info: CodexErrorInfo | null | undefined | unknown, message: string): string {
  const status = httpStatus(info);
  if (info === "unauthorized" || status === 401 || status === 403) return "AGENT_AUTH_REQUIRED";
  if (info === "usageLimitExceeded" || info === "rateLimitExceeded" || status === 429) return "RATE_LIMITED";
  if (info === "serverOverloaded" || info === "internalServerError" || (status !== null && status >= 500)) return "UPSTREAM_UNAVAILABLE";
  if (/\b401\b|unauthorized/i.test(message)) return "AGENT_AUTH_REQUIRED";
  if (/\b429\b|rate limit|quota/i.test(message)) return "RATE_LIMITED";
  return "AGENT_EXECUTION_FAILED";
}

function httpStatus(info: unknown): number | null {
  if (!isRecord(info)) return null;
  for (const value of Object.values(info)) {
    if (isRecord(value) && typeof value.httpStatusCode === "number") return value.httpStatusCode;
  }
  return null;
}
