/**
 * The headless answer to `session/request_permission`: approve for the session when offered, else the first
 * allow-always option, else allow-once. Once the agent has refused a privileged answer (gemini in an untrusted
 * folder refuses "allow always"), allow-once comes first. A request without any allowing option cannot be answered.
 */
import { isRecord } from "../../streams/tool-kind.ts";

/** The option picked: its id and ACP kind (`allow_always`, `allow_once`, or `session` for approve_for_session). */
export type PermissionChoice = { optionId: string; kind: string };

/** Option kinds that grant more than the one call; an agent may refuse them. */
export const PRIVILEGED_KINDS: ReadonlySet<string> = new Set(["session", "allow_always"]);

/** The option to select, or null when nothing allows the call. */
export function choosePermissionOption(params: unknown, privilegedRefused = false): PermissionChoice | null {
  const options = isRecord(params) && Array.isArray(params.options) ? params.options.filter(isRecord) : [];
  const idOf = (option: Record<string, unknown>) => (typeof option.optionId === "string" ? option.optionId : null);
  const order = privilegedRefused ? ["allow_once", "session", "allow_always"] : ["session", "allow_always", "allow_once"];
  for (const kind of order) {
    const match =
      kind === "session"
        ? options.find((option) => option.optionId === "approve_for_session")
        : options.find((option) => option.kind === kind && idOf(option) !== null);
    if (match) return { optionId: idOf(match) as string, kind };
  }
  return null;
}

/** The tool call a permission request is about (`params.toolCall.toolCallId`), when named. */
export function permissionToolCallId(params: unknown): string | null {
  const toolCall = isRecord(params) && isRecord(params.toolCall) ? params.toolCall : null;
  return toolCall && typeof toolCall.toolCallId === "string" ? toolCall.toolCallId : null;
}
