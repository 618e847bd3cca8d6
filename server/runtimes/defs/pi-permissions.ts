/**
 * How pi asks before it acts: pi has no permission prompt of its own, but its extensions see every tool call before it
 * runs and may block it. An `ask` or `read-only` run loads od's own small extension (written to the run's private
 * folder): each call of a tool that does more than read is put to od as an extension `input` dialog whose title
 * carries the tool and its arguments; od asks the run's approvals and answers `{"allow","message"}`, and a refusal
 * blocks the call with that message. Pure: the pi-rpc transport reads and answers the dialog.
 */
import type { PermissionMode } from "../../contracts/approvals.ts";
import type { AgentFile } from "../types.ts";
import { isRecord } from "../streams/tool-kind.ts";

/** What starts the title of od's own approval dialog (anything else is another extension's, answered as before). */
export const PI_APPROVAL_MARKER = "od-approval:";

/** pi's tools that only read: never asked about. */
const PI_READ_TOOLS = ["read", "grep", "find", "ls"];

const EXTENSION = `// od's permission gate for this run, written by od to the run's private folder and removed with it.
const MARKER = ${JSON.stringify(PI_APPROVAL_MARKER)};
const READS = new Set(${JSON.stringify(PI_READ_TOOLS)});
export default function (pi) {
  pi.on("tool_call", async (event, ctx) => {
    if (READS.has(event.toolName)) return undefined;
    const reply = await ctx.ui.input(MARKER + JSON.stringify({ toolName: event.toolName, input: event.input }), "");
    let answer;
    try {
      answer = JSON.parse(reply ?? "");
    } catch {
      answer = undefined;
    }
    if (answer && answer.allow === true) return undefined;
    const message = answer && typeof answer.message === "string" && answer.message ? answer.message : "The user denied this tool call.";
    return { block: true, reason: message };
  });
}
`;

/** The extension a run in `mode` loads: none in bypass. */
export function piPermissionExtension(mode: PermissionMode): AgentFile | undefined {
  return mode === "bypass" ? undefined : { name: "od-permissions.mjs", content: EXTENSION };
}

/** The tool call od's extension asks about, from a dialog's title; undefined for any other dialog. */
export function piApprovalRequest(title: unknown): { toolName: string; input: unknown } | undefined {
  if (typeof title !== "string" || !title.startsWith(PI_APPROVAL_MARKER)) return undefined;
  try {
    const parsed: unknown = JSON.parse(title.slice(PI_APPROVAL_MARKER.length));
    return isRecord(parsed) && typeof parsed.toolName === "string" ? { toolName: parsed.toolName, input: parsed.input } : undefined;
  } catch {
    return undefined;
  }
}

/** The dialog's answer: whether the call may go on, and for a refusal the words the agent is told. */
export function piApprovalReply(allow: boolean, message?: string): string {
  return JSON.stringify(allow ? { allow } : { allow, ...(message ? { message } : {}) });
}
