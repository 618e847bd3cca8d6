/**
 * A person answers an ACP `session/request_permission` (a run in `ask` or `read-only` mode): the request's tool call
 * becomes an ApprovalQuestion, and the answer becomes the offered option of the matching kind — `allow_once` for
 * allow once, `allow_always` (else `allow_once`) for the rest of the run, `reject_once` (else `reject_always`) for
 * deny. ACP has no field for a deny's words: the agent only learns the call was rejected.
 */
import type { ApprovalKind } from "../../../contracts/approvals.ts";
import { approvalKindOfTool, commandPrefixOf, type ApprovalAnswer, type ApprovalQuestion } from "../../approval-channel.ts";
import { classifyTool } from "../../streams/tool-kind.ts";
import { isRecord, relativeToCwd } from "../../streams/tool-kind.ts";
import type { PermissionChoice } from "./permission.ts";

/** ACP tool-call kinds (`read`, `edit`, `execute`, …) as the kinds a person approves. */
const KINDS: Record<string, ApprovalKind> = { read: "read", search: "read", edit: "edit", delete: "edit", move: "edit", execute: "command", fetch: "fetch" };

export function acpApprovalQuestion(params: unknown, cwd: string): ApprovalQuestion {
  const toolCall = isRecord(params) && isRecord(params.toolCall) ? params.toolCall : {};
  const acpKind = typeof toolCall.kind === "string" ? toolCall.kind : "other";
  const input = toolCall.rawInput ?? {};
  const args = isRecord(input) ? input : {};
  const command = typeof args.command === "string" ? args.command : Array.isArray(args.command) ? args.command.join(" ") : undefined;
  const location = Array.isArray(toolCall.locations) && isRecord(toolCall.locations[0]) ? toolCall.locations[0].path : undefined;
  // Some agents (claude-code-acp) send the request's tool call without its kind: the title's tool name says it.
  const titleTool = typeof toolCall.title === "string" ? (toolCall.title.split(/\s/)[0] ?? "") : "";
  const kind = KINDS[acpKind] ?? approvalKindOfTool(classifyTool(titleTool, input, cwd).kind);
  // The file it names, from its locations or its input (copilot titles a write "Create file" and names it in `fileName`).
  const path = typeof location === "string" ? relativeToCwd(location, cwd) : classifyTool(titleTool, input, cwd).path;
  const named = typeof toolCall.title === "string" && toolCall.title ? (path && !toolCall.title.includes(path) ? `${toolCall.title}: ${path}` : toolCall.title) : undefined;
  const title = (kind === "command" && command) || named || path || acpKind;
  const prefix = kind === "command" && command ? commandPrefixOf(command) : undefined;
  // ACP names no tool: its kind stands for it, so allow_run of an edit allows the run's edits.
  return { toolName: acpKind, kind, title, input, ...(prefix ? { commandPrefix: prefix } : {}) };
}

/** The option a decision selects, or null when the agent offered none of that kind. */
export function acpOptionFor(params: unknown, answer: ApprovalAnswer, privilegedRefused: boolean): PermissionChoice | null {
  const options = isRecord(params) && Array.isArray(params.options) ? params.options.filter(isRecord) : [];
  const order =
    answer.decision === "deny" ? ["reject_once", "reject_always"] : answer.decision === "allow_run" && !privilegedRefused ? ["allow_always", "allow_once"] : ["allow_once", "allow_always"];
  for (const kind of order) {
    const option = options.find((candidate) => candidate.kind === kind && typeof candidate.optionId === "string");
    if (option) return { optionId: option.optionId as string, kind };
  }
  return null;
}
