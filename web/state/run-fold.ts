/**
 * Folds RunEvents into a RunDraft: one exhaustive switch over the RunEvent union and one over the AgentEvent
 * union (no default; a `never` check makes a new event type a compile error here). Replayed events (id at or
 * below the last folded id) are ignored, so reconnecting from id 0 never duplicates anything.
 */
import type { AgentEvent } from "../../server/contracts/events.ts";
import type { RunEvent } from "../../server/contracts/runs.ts";
import type { RunDraft } from "./run-draft.ts";
import type { TextItem, ThinkingItem, ToolItem } from "./run-state.ts";
import { applyToolResult, applyToolUse, markLastFailedRefused, newTool, PERMISSION_REFUSED, settleRunningTools, toolIn } from "./tool-fold.ts";

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
      draft.add({ kind: "notice", key: draft.key(), level: "info", message: event.message, code: event.kind });
      break;
    case "error":
      draft.add({ kind: "notice", key: draft.key(), level: "error", message: event.error?.message ?? event.message, code: event.error?.code });
      break;
    case "end":
      closeThinking(draft);
      settleRunningTools(draft, event.status === "succeeded" ? "done" : "error");
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
      if (event.model) s.model = event.model;
      if (event.ttftMs !== undefined) s.ttftMs = event.ttftMs;
      break;
    case "text_delta": {
      if (s.firstTokenAt === undefined && ts !== undefined) {
        s.firstTokenAt = ts;
        if (s.ttftMs === undefined && s.startedAt !== undefined) s.ttftMs = Math.max(0, ts - s.startedAt);
      }
      if (s.statusLabel !== "streaming") s.statusLabel = "streaming";
      const last = draft.last();
      if (last?.kind === "text") draft.edit<TextItem>(s.items.length - 1).text += event.delta;
      else draft.add({ kind: "text", key: draft.key(), text: event.delta });
      break;
    }
    case "thinking_start":
      closeThinking(draft);
      draft.add({ kind: "thinking", key: draft.key(), text: "", open: true });
      s.statusLabel = "thinking";
      break;
    case "thinking_delta": {
      const last = draft.last();
      if (last?.kind === "thinking" && last.open) draft.edit<ThinkingItem>(s.items.length - 1).text += event.delta;
      else draft.add({ kind: "thinking", key: draft.key(), text: event.delta, open: true });
      break;
    }
    case "thinking_end":
      closeThinking(draft);
      break;
    case "thinking_tokens": {
      const index = draft.findLast((item) => item.kind === "thinking");
      if (index >= 0) draft.edit<ThinkingItem>(index).tokens = event.tokens;
      break;
    }
    case "tool_use": {
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
    case "approval_resolved":
      // Approval cards are drawn elsewhere (not folded into the answer yet).
      break;
    default:
      unreachable(event);
  }
}

function isFileChange(tool: ToolItem): boolean {
  return tool.toolKind === "file_write" || tool.toolKind === "file_edit";
}

function closeThinking(draft: RunDraft): void {
  const index = draft.findLast((item) => item.kind === "thinking");
  if (index >= 0 && (draft.state.items[index] as ThinkingItem).open) draft.edit<ThinkingItem>(index).open = false;
}
