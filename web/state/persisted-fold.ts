/**
 * Rebuilds the view of a finished turn from its persisted events (the compact form the daemon stores with the
 * assistant message), so history renders with the same components as a live run.
 */
import type { ToolKind } from "../../server/contracts/events.ts";
import type { Message, PersistedEvent } from "../../server/contracts/projects.ts";
import { RunDraft } from "./run-draft.ts";
import { emptyRunState, type RunEnding, type RunState } from "./run-state.ts";
import { applyToolResult, applyToolUse, markLastFailedRefused, PERMISSION_REFUSED } from "./tool-fold.ts";

/** Checked against the wire enum by the compiler (a missing or extra key fails tsc); keeps zod out of the bundle. */
const TOOL_KINDS: Record<ToolKind, true> = {
  file_write: true,
  file_edit: true,
  file_read: true,
  command: true,
  search: true,
  web: true,
  todo: true,
  task: true,
  mcp: true,
  other: true,
};

function toolKind(kind: string): ToolKind {
  return Object.hasOwn(TOOL_KINDS, kind) ? (kind as ToolKind) : "other";
}

export function runStateFromMessage(message: Message): RunState {
  const draft = new RunDraft(emptyRunState(message.runId ?? message.id));
  for (const event of message.events ?? []) foldPersistedEvent(draft, event, message.runId);
  const s = draft.state;
  if (!s.items.some((item) => item.kind === "text") && message.text) draft.add({ kind: "text", key: draft.key(), text: message.text });
  for (const file of message.files) draft.touchFile(file);
  s.statusLabel = message.runStatus ?? "done";
  if (message.agentId) s.agentId = message.agentId;
  if (message.startedAt !== null) s.startedAt = message.startedAt;
  if (message.endedAt !== null) s.endedAt = message.endedAt;
  const end = endingOf(message, s);
  if (end) s.end = end;
  return draft.snapshot();
}


/**
 * A finished turn keeps its end banner after a reload (a run that ended while the page was away must still say
 * it was stopped or failed). The stored message has no exit details: a failure's reason is its last error notice.
 */
function endingOf(message: Message, s: RunState): RunEnding | undefined {
  const status = message.runStatus;
  if (status !== "succeeded" && status !== "failed" && status !== "canceled") return undefined;
  const lastError = s.items.findLast((item) => item.kind === "notice" && item.level === "error");
  const reason = status === "failed" && lastError?.kind === "notice" ? lastError.message : status;
  const durationMs = message.startedAt !== null && message.endedAt !== null ? Math.max(0, message.endedAt - message.startedAt) : 0;
  return { status, reason, exitCode: null, signal: null, files: [...s.files], durationMs };
}

export function foldPersistedEvent(draft: RunDraft, event: PersistedEvent, runId?: string | null): void {
  switch (event.type) {
    case "status":
      draft.state.statusLabel = event.label;
      break;
    case "text":
      draft.add({ kind: "text", key: draft.key(), text: event.text });
      break;
    case "thinking":
      draft.add({ kind: "thinking", key: draft.key(), text: event.text, open: false });
      break;
    case "tool_use":
      // A stored call without a result was cut off, or never reported one: history shows it settled.
      applyToolUse(draft, { ...event, kind: toolKind(event.kind) }).state = "done";
      break;
    case "tool_result":
      applyToolResult(draft, event);
      break;
    case "usage":
      draft.state.usage = {
        inputTokens: event.inputTokens,
        outputTokens: event.outputTokens,
        costUsd: event.costUsd,
        durationMs: event.durationMs,
      };
      break;
    case "error":
      if (event.code === PERMISSION_REFUSED) markLastFailedRefused(draft);
      draft.add({ kind: "notice", key: draft.key(), level: "error", message: event.message, code: event.code });
      break;
    case "artifact":
      draft.touchFile(event.path ?? event.name);
      break;
    case "truncated":
      // The text before this notice is the answer's beginning, the text after it its end.
      draft.add({
        kind: "notice",
        key: draft.key(),
        level: "warning",
        code: "OUTPUT_TRUNCATED",
        message: `This answer is too long to show whole: ${omissions(event).join(" and ")} are left out here.`,
        ...(event.fullOutput && runId ? { link: { href: `/api/runs/${encodeURIComponent(runId)}/output`, label: "Open the whole answer" } } : {}),
      });
      break;
    default: {
      const never: never = event;
      void never;
    }
  }
}

/** What a cut answer leaves out, in words. */
function omissions(event: Extract<PersistedEvent, { type: "truncated" }>): string[] {
  const parts: string[] = [];
  if (event.omittedChars > 0) parts.push(`${event.omittedChars.toLocaleString("en")} of its ${event.totalChars.toLocaleString("en")} characters`);
  if (event.omittedEvents > 0) parts.push(`${event.omittedEvents.toLocaleString("en")} tool calls, results or thoughts`);
  return parts.length ? parts : ["some of its events"];
}
