/**
 * Claude Code's permission round trip (`--permission-prompt-tool stdio`): before a tool call it prints
 * `{"type":"control_request","request_id":…,"request":{"subtype":"can_use_tool","tool_name":…,"input":{…}}}` and waits
 * for a `control_response` line on stdin, `{"behavior":"allow","updatedInput":{…}}` or
 * `{"behavior":"deny","message":…}` (Claude Code 2.1.332). Pure: the attempt reads and writes the lines.
 */
import type { ApprovalAnswer } from "../approval-channel.ts";
import { isRecord } from "./tool-kind.ts";

/** One `can_use_tool` question. */
export type CanUseToolRequest = { requestId: string; toolName: string; input: Record<string, unknown> };

/** The question a stdout line asks, or null for every other line (most of them: checked cheaply first). */
export function parseCanUseTool(line: string): CanUseToolRequest | null {
  if (!line.includes("can_use_tool")) return null;
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return null;
  }
  if (!isRecord(record) || record.type !== "control_request" || !isRecord(record.request)) return null;
  const { request } = record;
  if (request.subtype !== "can_use_tool" || typeof request.tool_name !== "string") return null;
  const requestId = typeof record.request_id === "string" || typeof record.request_id === "number" ? String(record.request_id) : null;
  if (requestId === null) return null;
  return { requestId, toolName: request.tool_name, input: isRecord(request.input) ? request.input : {} };
}

/** A `control_response` line (the CLI answering a control request of od's, such as `initialize`). */
export function isControlResponse(line: string): boolean {
  if (!line.startsWith('{"type":"control_response"')) return false;
  try {
    const record: unknown = JSON.parse(line);
    return isRecord(record) && record.type === "control_response";
  } catch {
    return false;
  }
}

/**
 * The stdin line that answers `request`: allow with its input unchanged (an AskUserQuestion's with the person's
 * `answers` added, question text → answer, as the Agent SDK answers it), or deny with the words for the agent.
 */
export function controlResponseLine(request: CanUseToolRequest, answer: ApprovalAnswer): string {
  const response =
    answer.decision === "deny"
      ? { behavior: "deny", message: answer.message ?? "The user denied this tool call." }
      : { behavior: "allow", updatedInput: answer.answers ? { ...request.input, answers: answer.answers } : request.input };
  return JSON.stringify({ type: "control_response", response: { subtype: "success", request_id: request.requestId, response } });
}
