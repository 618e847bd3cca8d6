/**
 * The headless answer to `session/request_permission`: approve for the session when offered, else the first
 * allow-always option, else allow-once. A request without any allowing option cannot be answered.
 */
import { isRecord } from "../../streams/tool-kind.ts";

/** The optionId to select, or null when nothing allows the call. */
export function choosePermissionOption(params: unknown): string | null {
  const options = isRecord(params) && Array.isArray(params.options) ? params.options.filter(isRecord) : [];
  const idOf = (option: Record<string, unknown>) => (typeof option.optionId === "string" ? option.optionId : null);
  const bySession = options.find((option) => option.optionId === "approve_for_session");
  if (bySession) return "approve_for_session";
  for (const kind of ["allow_always", "allow_once"]) {
    const match = options.find((option) => option.kind === kind && idOf(option) !== null);
    if (match) return idOf(match);
  }
  return null;
}
