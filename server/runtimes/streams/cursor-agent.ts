/**
 * `json-event-stream` / `cursor-agent`: `cursor-agent --print --output-format stream-json --stream-partial-output`.
 * Assistant records with `timestamp_ms` and no `model_call_id` are incremental deltas; the others replay text already
 * streamed, so only a missing suffix is emitted. Tool calls come as `tool_call` started/completed records whose
 * payload is keyed by the tool (`writeToolCall`, `shellToolCall`, …, or `function {name, arguments}`).
 */
import { perEvent } from "../../platform/jit-tiers.ts";
import type { AgentEvent } from "../../contracts/events.ts";
import { jsonRecordParser, rawRecord, type JsonRecord } from "./json-lines.ts";
import { toolUseEvent } from "./tool-kind.ts";
import type { ParserContext, StreamParser } from "./types.ts";
import { compact, num, obj, parseToolInput, pickUsage, str, stringifyContent } from "./wire.ts";

/** Cursor's tool payload key → a tool name classifyTool understands. */
const TOOL_NAMES: Record<string, string> = {
  readToolCall: "read",
  writeToolCall: "write",
  editToolCall: "edit",
  deleteToolCall: "delete",
  shellToolCall: "shell",
  grepToolCall: "grep",
  globToolCall: "glob",
  lsToolCall: "ls",
  updateTodosToolCall: "todo",
  todoToolCall: "todo",
  webSearchToolCall: "web_search",
  webFetchToolCall: "web_fetch",
};

/** cursor-agent usage fields → ours (one object for every run instead of one literal per result). */
const USAGE_FIELDS = {
  input_tokens: "inputTokens",
  output_tokens: "outputTokens",
  cached_read_tokens: "cacheReadTokens",
  cached_write_tokens: "cacheWriteTokens",
} as const;

/** The text of an assistant message's content: a string, or its blocks' texts joined. */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  // Almost every record carries one text block: take it as is instead of mapping and joining an array.
  if (content.length === 1) return str(obj(content[0])?.text) ?? "";
  let text = "";
  for (const block of content) text += str(obj(block)?.text) ?? "";
  return text;
}

/** The first key of the tool_call payload and its value (what `Object.entries(call)[0]` gave, without the array). */
function firstEntry(call: JsonRecord): [string, unknown] {
  for (const key in call) return [key, call[key]];
  return ["unknown", {}];
}

perEvent(contentText, firstEntry, shellOutput);

/** Creates a parser for one cursor-agent run. */
export function createCursorAgentParser(ctx: ParserContext = {}): StreamParser {
  const cwd = ctx.cwd;
  const emittedTools = new Set<string>();
  const finishedTools = new Set<string>();
  let sessionId: string | undefined;
  let turnText = "";

  function assistant(rec: JsonRecord, out: AgentEvent[]): void {
    const text = contentText(obj(rec.message)?.content);
    if (text === "") return;
    const incremental = num(rec.timestamp_ms) !== undefined && rec.model_call_id === undefined;
    if (incremental) {
      turnText += text;
      out.push({ type: "text_delta", delta: text });
      return;
    }
    if (text.startsWith(turnText)) {
      const suffix = text.slice(turnText.length);
      turnText = text;
      if (suffix !== "") out.push({ type: "text_delta", delta: suffix });
      return;
    }
    if (turnText.includes(text)) return;
    turnText += text;
    out.push({ type: "text_delta", delta: text });
  }

  function toolCall(rec: JsonRecord, line: string | undefined, out: AgentEvent[]): void {
    const call = obj(rec.tool_call);
    if (!call) {
      out.push(rawRecord(rec, line));
      return;
    }
    const id = str(rec.call_id) ?? "tool";
    const [key, payloadRaw] = firstEntry(call);
    const payload = obj(payloadRaw) ?? {};
    const fn = key === "function";
    const name = fn ? (str(payload.name) ?? "function") : (TOOL_NAMES[key] ?? key.replace(/ToolCall$/, ""));
    const input = fn ? (typeof payload.arguments === "string" ? parseToolInput(payload.arguments) : (payload.arguments ?? {})) : (payload.args ?? {});
    if (!emittedTools.has(id)) {
      emittedTools.add(id);
      out.push(toolUseEvent(id, name, input, cwd));
    }
    if (rec.subtype !== "completed" || finishedTools.has(id)) return;
    finishedTools.add(id);
    const result = obj(payload.result) ?? {};
    const success = obj(result.success);
    const failure = result.error ?? result.rejected ?? result.failure;
    const exit = num(success?.exitCode);
    const content = success ? shellOutput(success) ?? stringifyContent(success) : stringifyContent(failure ?? payload.result ?? "");
    const event: AgentEvent = { type: "tool_result", toolUseId: id, content };
    if (!success || (exit !== undefined && exit !== 0)) event.isError = true;
    if (exit !== undefined) event.exitCode = exit;
    out.push(event);
  }

  perEvent(assistant, toolCall);
  return jsonRecordParser({
    record(rec, line) {
      const out: AgentEvent[] = [];
      const lineSession = str(rec.session_id);
      if (rec.type === "system" && rec.subtype === "init") {
        sessionId = lineSession ?? sessionId;
        return [compact({ type: "status", label: "initializing", model: str(rec.model), sessionId: lineSession })];
      }
      if (lineSession !== undefined && lineSession !== sessionId) {
        sessionId = lineSession;
        out.push({ type: "status", label: "running", sessionId: lineSession });
      }
      switch (rec.type) {
        case "assistant":
          assistant(rec, out);
          return out;
        case "user":
          turnText = "";
          return out;
        case "tool_call":
          toolCall(rec, line, out);
          return out;
        case "thinking": {
          const text = str(rec.text) ?? "";
          if (rec.subtype === "delta" && text !== "") out.push({ type: "thinking_delta", delta: text });
          return out;
        }
        case "result": {
          turnText = "";
          const usage = pickUsage(rec.usage, USAGE_FIELDS);
          const isError = rec.is_error === true;
          out.push(compact({ type: "usage", usage, durationMs: num(rec.duration_ms), stopReason: str(rec.subtype), isError: isError ? true : undefined }));
          if (isError) out.push({ type: "error", message: str(rec.result) || `cursor-agent run failed: ${str(rec.subtype) ?? "unknown"}`, code: str(rec.subtype) ?? "result_error", terminal: true });
          return out;
        }
        default:
          out.push(rawRecord(rec, line));
          return out;
      }
    },
    end() {
      return [];
    },
  });
}

function shellOutput(success: JsonRecord): string | undefined {
  const stdout = str(success.stdout);
  const stderr = str(success.stderr);
  if (stdout === undefined && stderr === undefined) return undefined;
  return [stdout, stderr].filter((s) => s !== undefined && s !== "").join("\n");
}
