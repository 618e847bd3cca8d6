/**
 * Folds RunEvents into a RunDraft: one exhaustive switch over the RunEvent union and one over the AgentEvent
 * union (no default; a `never` check makes a new event type a compile error here). Replayed events (id at or
 * below the last folded id) are ignored, so reconnecting from id 0 never duplicates anything.
 */
import type { AgentEvent } from "../../server/contracts/events.ts";
import { OUTPUT_TRUNCATED } from "../../server/contracts/output-truncated.ts";
import type { OutputTruncatedDetail, RunEvent, RunEventOf } from "../../server/contracts/runs.ts";
import type { RunDraft } from "./run-draft.ts";
import type { ApprovalItem, NoticeItem, TextItem, ThinkingItem, ToolItem } from "./run-state.ts";
import { applyToolResult, applyToolUse, markLastFailedRefused, newTool, PERMISSION_REFUSED, settleRunningTools, toolIn, unfinishedStateFor } from "./tool-fold.ts";

/** What a fold means for the rest of the page. */
export interface FoldEffect {
  /** The run wrote files: the files panel should refresh. */
  filesChanged: boolean;
}

function unreachable(value: never): void {
  void value;
}

/** Applies one RunEvent; returns what changed outside the run. Never throws on odd payloads. */
export function foldRunEvent(draft: RunDraft, event: RunEvent): FoldEffect {
  const effect: FoldEffect = { filesChanged: false };
  const s = draft.state;
  if (typeof event.id !== "number" || event.id <= s.lastEventId) return effect;
  s.lastEventId = event.id;
  switch (event.type) {
    case "start":
      if (event.attemptIndex > 0) {
        draft.add({ kind: "notice", key: draft.key(), level: "info", message: "The agent's session had expired; retrying with the full conversation." });
      } else {
        s.startedAt = event.ts;
      }
      s.agentId = event.agentId;
      s.model = event.model;
      s.statusLabel = "initializing";
      break;
    case "agent":
      foldAgentEvent(draft, event.event, event.ts, effect);
      break;
    case "stdout":
    case "stderr":
      draft.appendOutput(event.chunk);
      break;
    case "diagnostic":
      draft.add(diagnosticNotice(draft, event));
      break;
    case "notice":
      draft.add({ kind: "notice", key: draft.key(), level: "warning", message: event.message, code: event.kind });
      break;
    case "error":
      draft.add({ kind: "notice", key: draft.key(), level: "error", message: event.error?.message ?? event.message, code: event.error?.code });
      break;
    case "end":
      closeThinking(draft);
      if (event.status === "failed") dropRepeatsOfReason(draft, event.reason);
      settleRunningTools(draft, unfinishedStateFor(event.status));
      closeOpenApprovals(draft);
      s.end = {
        status: event.status,
        reason: event.reason,
        failureCategory: event.failureCategory,
        failureDetail: event.failureDetail,
        guidance: event.guidance,
        fixCommand: event.fixCommand,
        exitCode: event.code,
        signal: event.signal,
        files: Array.isArray(event.files) ? event.files : [],
        durationMs: event.durationMs,
      };
      for (const file of s.end.files) draft.touchFile(file);
      s.endedAt = event.ts;
      s.statusLabel = event.status;
      effect.filesChanged = true;
      break;
    default:
      unreachable(event);
  }
  return effect;
}

/** Applies one AgentEvent (the payload of an `agent` RunEvent) at daemon time `ts`. */
export function foldAgentEvent(draft: RunDraft, event: AgentEvent, ts: number | undefined, effect: FoldEffect): void {
  const s = draft.state;
  switch (event.type) {
    case "status":
      s.statusLabel = event.label;
      // A `streaming` status's ttftMs is the agent's time to its first visible text, which can come long after it
      // started thinking and calling tools: the header's first token is od's own measure of any output (below).
      if (event.model) s.model = event.model;
      break;
    case "text_delta": {
      noteFirstOutput(draft, ts);
      if (s.statusLabel !== "streaming") s.statusLabel = "streaming";
      const last = draft.last();
      if (last?.kind === "text") draft.edit<TextItem>(s.items.length - 1).text += event.delta;
      else draft.add({ kind: "text", key: draft.key(), text: event.delta });
      break;
    }
    case "thinking_start":
      noteFirstOutput(draft, ts);
      closeThinking(draft);
      draft.add({ kind: "thinking", key: draft.key(), text: "", open: true });
      s.statusLabel = "thinking";
      break;
    case "thinking_delta": {
      noteFirstOutput(draft, ts);
      const last = draft.last();
      if (last?.kind === "thinking" && last.open) draft.edit<ThinkingItem>(s.items.length - 1).text += event.delta;
      else draft.add({ kind: "thinking", key: draft.key(), text: event.delta, open: true });
      break;
    }
    case "thinking_end":
      closeThinking(draft);
      break;
    case "thinking_tokens": {
      const index = draft.newestOf("thinking");
      if (index >= 0) draft.edit<ThinkingItem>(index).tokens = event.tokens;
      break;
    }
    case "tool_use": {
      noteFirstOutput(draft, ts);
      closeThinking(draft);
      applyToolUse(draft, event);
      s.statusLabel = "working";
      if ((event.kind === "file_write" || event.kind === "file_edit") && event.path) {
        draft.touchFile(event.path);
        effect.filesChanged = true;
      }
      break;
    }
    case "tool_input_delta": {
      noteFirstOutput(draft, ts);
      toolIn(draft, draft.root, event.id, event.name).inputDraft += event.delta;
      break;
    }
    case "tool_result": {
      const tool = applyToolResult(draft, event);
      // tool_use is the request: the file exists only once its result is in, so list the files again now.
      if (isFileChange(tool)) effect.filesChanged = true;
      break;
    }
    case "usage":
      s.usage = {
        ...s.usage,
        inputTokens: event.usage?.input_tokens ?? s.usage?.inputTokens,
        outputTokens: event.usage?.output_tokens ?? s.usage?.outputTokens,
        thoughtTokens: event.usage?.thought_tokens ?? s.usage?.thoughtTokens,
        cachedReadTokens: event.usage?.cached_read_tokens ?? s.usage?.cachedReadTokens,
        costUsd: event.costUsd ?? s.usage?.costUsd,
        durationMs: event.durationMs ?? s.usage?.durationMs,
        model: event.model ?? s.usage?.model,
        stopReason: event.stopReason ?? s.usage?.stopReason,
      };
      break;
    case "turn_end":
      s.usage = { ...s.usage, stopReason: event.stopReason };
      break;
    case "artifact": {
      const path = event.path ?? event.name;
      draft.touchFile(path);
      draft.add({ ...newTool(draft.key(), `artifact:${path}`, event.name), toolKind: "file_write", path, state: "done", input: { artifact: event.name } });
      effect.filesChanged = true;
      break;
    }
    case "error":
      if (event.code === PERMISSION_REFUSED) markLastFailedRefused(draft);
      draft.add({ kind: "notice", key: draft.key(), level: event.terminal ? "error" : "warning", message: event.message, code: event.code });
      break;
    case "raw":
      draft.appendOutput(event.line.endsWith("\n") ? event.line : `${event.line}\n`);
      break;
    case "approval_request":
      draft.add({
        kind: "approval",
        key: draft.key(),
        runId: draft.state.runId,
        approvalId: event.approvalId,
        toolName: event.toolName,
        approvalKind: event.kind,
        title: event.title,
        input: event.input,
        options: event.options,
        ...(event.questions ? { questions: event.questions } : {}),
      });
      draft.state.openApprovals += 1;
      break;
    case "approval_resolved": {
      const index = draft.findLast((item) => item.kind === "approval" && item.approvalId === event.approvalId);
      if (index < 0) break;
      const approval = draft.edit<ApprovalItem>(index);
      if (!approval.decision && !approval.closed) draft.state.openApprovals = Math.max(0, draft.state.openApprovals - 1);
      approval.decision = event.decision;
      approval.by = event.by;
      if (event.answers) approval.answers = event.answers;
      break;
    }
    default:
      unreachable(event);
  }
}

/** A question still open when its run ended can no longer be answered (an od that stopped never said how it ended). */
function closeOpenApprovals(draft: RunDraft): void {
  draft.state.openApprovals = 0;
  draft.state.items.forEach((item, index) => {
    if (item.kind === "approval" && !item.decision && !item.closed) draft.edit<ApprovalItem>(index).closed = true;
  });
}

/**
 * A failed run's reason is shown once, in the end banner with its fix. The agent often said it already, as its
 * answer text and as an error, and the daemon as the run's error: those items say nothing the banner does not.
 */
function dropRepeatsOfReason(draft: RunDraft, reason: string): void {
  const said = reason.trim();
  if (!said) return;
  draft.removeWhere((item) => (item.kind === "text" && item.text.trim() === said) || (item.kind === "notice" && item.level !== "info" && item.message.trim() === said));
}

/**
 * A diagnostic as a notice. The cut of a history too large to show whole is a warning, linking to the whole answer
 * when the daemon kept it on disk.
 */
function diagnosticNotice(draft: RunDraft, event: RunEventOf<"diagnostic">): NoticeItem {
  if (event.kind !== OUTPUT_TRUNCATED) return { kind: "notice", key: draft.key(), level: "info", message: event.message, code: event.kind };
  const detail = event.detail as Partial<OutputTruncatedDetail> | undefined;
  const runId = draft.state.runId;
  return {
    kind: "notice",
    key: draft.key(),
    level: "warning",
    code: "OUTPUT_TRUNCATED",
    message: event.message,
    ...(detail?.fullOutput ? { link: { href: `/api/runs/${encodeURIComponent(runId)}/output`, label: "Open the whole answer" } } : {}),
  };
}

/**
 * The first output of any kind (thinking, a tool call, text) after the start: what "first token" in the header
 * measures, so it never reads seconds after the agent visibly began working.
 */
function noteFirstOutput(draft: RunDraft, ts: number | undefined): void {
  const s = draft.state;
  if (s.firstTokenAt !== undefined || ts === undefined) return;
  s.firstTokenAt = ts;
  if (s.startedAt !== undefined) s.ttftMs = Math.max(0, ts - s.startedAt);
}

function isFileChange(tool: ToolItem): boolean {
  return tool.toolKind === "file_write" || tool.toolKind === "file_edit";
}

function closeThinking(draft: RunDraft): void {
  const index = draft.newestOf("thinking");
  if (index >= 0 && (draft.state.items[index] as ThinkingItem).open) draft.edit<ThinkingItem>(index).open = false;
}
