/**
 * `claude-stream-json`: Claude Code's `--output-format stream-json` (also amp, codebuddy and qwen's `-o stream-json`).
 * With `--include-partial-messages`, `stream_event` frames carry raw Anthropic SSE deltas and the per-block
 * `assistant` lines repeat what was streamed; without it only the `assistant` lines arrive. Text already streamed for
 * a message is not repeated, tool input assembled from `input_json_delta` wins over the wrapper's copy, and frames of
 * sub-agents (`parent_tool_use_id` set) show their tool calls, linked to the `Task`/`Agent` call that started them by
 * `parentToolUseId`, but never their text, and never end the main turn.
 */
import type { AgentEvent } from "../../contracts/events.ts";
import { perEvent } from "../../platform/jit-tiers.ts";
import { isTaskTool, TaskList } from "./claude-tasks.ts";
import { jsonRecordParser, rawRecord, type JsonRecord } from "./json-lines.ts";
import { toolUseEvent } from "./tool-kind.ts";
import type { ParserContext, StreamParser } from "./types.ts";
import { arr, compact, num, obj, parseToolInput, pickUsage, str, stringifyContent } from "./wire.ts";

/** Stable code for Claude's "Prompt is too long" failure. */
export const PROMPT_TOO_LARGE = "AGENT_PROMPT_TOO_LARGE";

type OpenBlock = { kind: "text" | "thinking" | "tool_use" | "other"; id?: string; name?: string; json: string; input?: unknown };

/** Claude usage fields → ours (one object shared by every call instead of one literal per record). */
const CLAUDE_USAGE_FIELDS = {
  input_tokens: "input_tokens",
  output_tokens: "output_tokens",
  cached_read_tokens: "cache_read_input_tokens",
  cached_write_tokens: "cache_creation_input_tokens",
} as const;

/** Anthropic usage → our Usage. */
export function claudeUsage(usage: unknown) {
  return pickUsage(usage, CLAUDE_USAGE_FIELDS);
}

/** Creates a parser for one Claude stream-json run. */
export function createClaudeParser(ctx: ParserContext = {}): StreamParser {
  const cwd = ctx.cwd;
  const blocks = new Map<number, OpenBlock>();
  const streamedText = new Set<string>();
  const streamedThinking = new Set<string>();
  const emittedTools = new Set<string>();
  const assembledInput = new Map<string, unknown>();
  const endedMessages = new Set<string>();
  const renamedToolIds = new Map<string, string>();
  const tasks = new TaskList();
  let currentMessageId = "";
  let turnEndedSinceResult = false;
  /** An assistant-level error (e.g. authentication_failed) waits for `result`, which repeats it as the terminal one. */
  let pendingError: { message: string; code: string } | undefined;

  function emitToolUse(out: AgentEvent[], id: string, name: string, input: unknown, parentToolUseId?: string): void {
    if (emittedTools.has(id)) return;
    emittedTools.add(id);
    const parent = parentToolUseId ? { parentToolUseId } : {};
    if (isTaskTool(name)) {
      const todoId = `${id}:todo-task`;
      renamedToolIds.set(id, todoId);
      out.push({ ...toolUseEvent(todoId, "TodoWrite", tasks.apply(name, input), cwd), ...parent });
      return;
    }
    out.push({ ...toolUseEvent(id, name, input, cwd), ...parent });
  }

  function turnEnd(out: AgentEvent[], messageId: string, stopReason: string | undefined): void {
    if (!stopReason || stopReason === "tool_use" || endedMessages.has(messageId)) return;
    endedMessages.add(messageId);
    turnEndedSinceResult = true;
    out.push({ type: "turn_end", stopReason });
  }

  function onSystem(rec: JsonRecord, line: string | undefined): AgentEvent[] {
    switch (rec.subtype) {
      case "init":
        return [compact({ type: "status", label: "initializing", model: str(rec.model), sessionId: str(rec.session_id) })];
      case "status":
        return [{ type: "status", label: str(rec.status) || "working" }];
      case "thinking_tokens": {
        const tokens = num(rec.estimated_tokens);
        return tokens === undefined ? [] : [{ type: "thinking_tokens", tokens }];
      }
      case "api_retry":
        return [compact({ type: "status", label: "retrying", detail: retryDetail(rec) })];
      case "compact_boundary":
        return [{ type: "status", label: "compacting" }];
      case "permission_denied":
        return [compact({ type: "status", label: "warning", detail: str(rec.message) ?? `permission denied: ${str(rec.tool_name) ?? "tool"}` })];
      default:
        return [rawRecord(rec, line)];
    }
  }

  function onStreamEvent(rec: JsonRecord, line: string | undefined): AgentEvent[] {
    const event = obj(rec.event);
    if (!event) return [rawRecord(rec, line)];
    if (rec.parent_tool_use_id) return [];
    // One small function per frame type: the frequent ones (a block's deltas) get compiled alone, not with the rest.
    switch (event.type) {
      case "content_block_delta":
        return onBlockDelta(event);
      case "message_start":
        return onMessageStart(rec, event);
      case "content_block_start":
        return onBlockStart(event);
      case "content_block_stop":
        return onBlockStop(event);
      case "message_delta": {
        const out: AgentEvent[] = [];
        turnEnd(out, currentMessageId, str(obj(event.delta)?.stop_reason));
        return out;
      }
      case "message_stop":
      case "ping":
        return [];
      default:
        return [rawRecord(rec, line)];
    }
  }

  function onMessageStart(rec: JsonRecord, event: JsonRecord): AgentEvent[] {
    currentMessageId = str(obj(event.message)?.id) ?? currentMessageId;
    blocks.clear();
    const ttft = num(rec.ttft_ms) ?? num(event.ttft_ms);
    return ttft === undefined ? [] : [{ type: "status", label: "streaming", ttftMs: ttft }];
  }

  function onBlockStart(event: JsonRecord): AgentEvent[] {
    const index = num(event.index) ?? 0;
    const block = obj(event.content_block) ?? {};
    const type = str(block.type);
    if (type === "thinking" || type === "redacted_thinking") {
      blocks.set(index, { kind: "thinking", json: "" });
      return [{ type: "thinking_start" }];
    }
    if (type === "tool_use" || type === "server_tool_use") {
      blocks.set(index, { kind: "tool_use", id: str(block.id), name: str(block.name) ?? "tool", json: "", input: block.input });
    } else {
      blocks.set(index, { kind: type === "text" ? "text" : "other", json: "" });
    }
    return [];
  }

  function onBlockDelta(event: JsonRecord): AgentEvent[] {
    const delta = obj(event.delta);
    switch (delta?.type) {
      case "text_delta": {
        const text = str(delta.text) ?? "";
        if (text === "") return [];
        streamedText.add(currentMessageId);
        return [{ type: "text_delta", delta: text }];
      }
      case "thinking_delta": {
        const text = str(delta.thinking) ?? "";
        if (text === "") return [];
        streamedThinking.add(currentMessageId);
        return [{ type: "thinking_delta", delta: text }];
      }
      case "input_json_delta": {
        const part = str(delta.partial_json) ?? "";
        const block = blocks.get(num(event.index) ?? 0);
        if (!block || block.kind !== "tool_use" || part === "") return [];
        block.json += part;
        return [{ type: "tool_input_delta", id: block.id ?? "", name: block.name ?? "tool", delta: part }];
      }
      default:
        return [];
    }
  }

  function onBlockStop(event: JsonRecord): AgentEvent[] {
    const index = num(event.index) ?? 0;
    const block = blocks.get(index);
    blocks.delete(index);
    const out: AgentEvent[] = [];
    if (block?.kind === "tool_use" && block.id) {
      const input = block.json === "" ? (block.input ?? {}) : parseToolInput(block.json);
      assembledInput.set(block.id, input);
      emitToolUse(out, block.id, block.name ?? "tool", input);
    }
    return out;
  }

  function onAssistant(rec: JsonRecord, line: string | undefined): AgentEvent[] {
    const message = obj(rec.message);
    if (!message) return [rawRecord(rec, line)];
    const parentToolUseId = str(rec.parent_tool_use_id) || undefined;
    const isSubAgent = parentToolUseId !== undefined;
    const messageId = str(message.id) ?? "";
    const out: AgentEvent[] = [];
    const texts: string[] = [];
    const content = message.content;
    if (typeof content === "string") {
      if (!isSubAgent && content !== "" && !streamedText.has(messageId)) out.push({ type: "text_delta", delta: content });
      texts.push(content);
    }
    for (const item of arr(content)) {
      const block = obj(item);
      if (!block) continue;
      if (block.type === "tool_use" || block.type === "server_tool_use") {
        const id = str(block.id);
        if (!id) continue;
        emitToolUse(out, id, str(block.name) ?? "tool", assembledInput.has(id) ? assembledInput.get(id) : (block.input ?? {}), parentToolUseId);
      } else if (block.type === "text") {
        const text = str(block.text) ?? "";
        texts.push(text);
        if (!isSubAgent && text !== "" && !streamedText.has(messageId)) out.push({ type: "text_delta", delta: text });
      } else if (block.type === "thinking") {
        const text = str(block.thinking) ?? "";
        if (!isSubAgent && text !== "" && !streamedThinking.has(messageId)) {
          out.push({ type: "thinking_start" }, { type: "thinking_delta", delta: text });
        }
      }
    }
    if (isSubAgent) return out;
    turnEnd(out, messageId, str(message.stop_reason));
    const error = str(rec.error);
    if (error) {
      pendingError = { message: texts.join("\n").trim() || error, code: error };
    }
    return out;
  }

  function onUser(rec: JsonRecord): AgentEvent[] {
    const out: AgentEvent[] = [];
    const parentToolUseId = str(rec.parent_tool_use_id) || undefined;
    for (const item of arr(obj(rec.message)?.content)) {
      const block = obj(item);
      // Keyed on tool_use_id rather than `type`, so a result block with an unexpected type label still lands.
      const id = str(block?.tool_use_id);
      if (!block || (block.type !== "tool_result" && !id)) continue;
      if (!id) continue;
      const result: AgentEvent = { type: "tool_result", toolUseId: renamedToolIds.get(id) ?? id, content: stringifyContent(block.content) };
      if (block.is_error === true) {
        result.isError = true;
        // A failed Bash call's result starts "Exit code N"; a successful one carries no code at all.
        const exit = /^Exit code (\d+)\b/.exec(result.content);
        if (exit) result.exitCode = Number(exit[1]);
      }
      if (parentToolUseId) result.parentToolUseId = parentToolUseId;
      out.push(result);
    }
    return out;
  }

  function onResult(rec: JsonRecord): AgentEvent[] {
    const isError = rec.is_error === true;
    const out: AgentEvent[] = [];
    // Without partial messages the per-block assistant lines carry no stop_reason: the result closes the turn.
    const resultStop = str(rec.stop_reason);
    if (!turnEndedSinceResult && resultStop && resultStop !== "tool_use") out.push({ type: "turn_end", stopReason: resultStop });
    turnEndedSinceResult = false;
    const usage: AgentEvent = compact({
      type: "usage" as const,
      usage: claudeUsage(rec.usage),
      costUsd: num(rec.total_cost_usd),
      durationMs: num(rec.duration_ms),
      stopReason: str(rec.stop_reason) ?? str(rec.terminal_reason),
      isError: isError ? true : undefined,
      modelUsage: obj(rec.modelUsage),
    });
    out.push(usage);
    const assistantError = pendingError;
    pendingError = undefined;
    if (!isError) return out;
    const errors = arr(rec.errors).map(stringifyContent).filter((e) => e !== "");
    // Claude reports API failures as subtype "success" with is_error; the assistant-level code says more.
    const subtype = str(rec.subtype) === "success" ? undefined : str(rec.subtype);
    // qwen (same stream-json shapes) puts the reason in `error.message` instead of `errors`/`result`.
    const errorMessage = str(obj(rec.error)?.message);
    const message = errors.join("\n") || str(rec.result) || errorMessage || assistantError?.message || `Claude run failed: ${str(rec.subtype) ?? "unknown"}`;
    const code = /prompt is too long/i.test(message) ? PROMPT_TOO_LARGE : subtype || assistantError?.code || "result_error";
    out.push({ type: "error", message, code, terminal: true });
    return out;
  }

  perEvent(onStreamEvent, onMessageStart, onBlockStart, onBlockDelta, onBlockStop, onAssistant, onUser, turnEnd);
  return jsonRecordParser({
    record(rec, line) {
      switch (rec.type) {
        case "system":
          return onSystem(rec, line);
        case "stream_event":
          return onStreamEvent(rec, line);
        case "assistant":
          return onAssistant(rec, line);
        case "user":
          return onUser(rec);
        case "result":
          return onResult(rec);
        default:
          return [rawRecord(rec, line)];
      }
    },
    end() {
      const error = pendingError;
      pendingError = undefined;
      return error ? [{ type: "error", message: error.message, code: error.code }] : [];
    },
  });
}

/** "attempt 2/10: overloaded" from an `api_retry` record; undefined when it says neither. */
function retryDetail(rec: JsonRecord): string | undefined {
  const attempt = num(rec.attempt);
  const max = num(rec.max_retries);
  const detail = [attempt !== undefined ? `attempt ${attempt}${max !== undefined ? `/${max}` : ""}` : undefined, str(rec.error) ?? stringifyOptional(rec.error_status)]
    .filter(Boolean)
    .join(": ");
  return detail || undefined;
}

function stringifyOptional(value: unknown): string | undefined {
  return value === undefined || value === null ? undefined : String(value);
}
