/**
 * `qoder-stream-json`: `qodercli -p --output-format stream-json`, wire-compatible with Claude Code's stream-json
 * without partial messages: `system/init` (adds `qodercli_version`), whole `assistant` messages, `user` tool results,
 * `result`. An `assistant` record with `error` and no text (e.g. `authentication_failed`) is reported as an error.
 */
import { perEvent } from "../../platform/jit-tiers.ts";
import type { AgentEvent, AgentEventOf } from "../../contracts/events.ts";
import { claudeUsage } from "./claude.ts";
import { jsonRecordParser, rawRecord, type JsonRecord } from "./json-lines.ts";
import { toolUseEvent } from "./tool-kind.ts";
import type { ParserContext, StreamParser } from "./types.ts";
import { arr, num, obj, str, stringifyContent } from "./wire.ts";

/** Creates a parser for one qodercli run. */
export function createQoderParser(ctx: ParserContext = {}): StreamParser {
  const cwd = ctx.cwd;
  const emittedTools = new Set<string>();
  let thinking = false;

  function assistant(rec: JsonRecord, line: string | undefined): AgentEvent[] {
    const message = obj(rec.message);
    if (!message) return [rawRecord(rec, line)];
    const out: AgentEvent[] = [];
    let sawText = false;
    const content = message.content;
    if (typeof content === "string" && content !== "") {
      sawText = true;
      out.push({ type: "text_delta", delta: content });
    }
    for (const item of arr(content)) {
      const block = obj(item);
      if (!block) continue;
      if (block.type === "text") {
        const text = str(block.text) ?? "";
        if (text === "") continue;
        sawText = true;
        thinking = false;
        out.push({ type: "text_delta", delta: text });
      } else if (block.type === "thinking") {
        const text = str(block.thinking) ?? str(block.text) ?? "";
        if (text === "") continue;
        if (!thinking) out.push({ type: "thinking_start" });
        thinking = true;
        out.push({ type: "thinking_delta", delta: text });
      } else if (block.type === "tool_use") {
        const id = str(block.id);
        if (!id || emittedTools.has(id)) continue;
        emittedTools.add(id);
        out.push(toolUseEvent(id, str(block.name) ?? "tool", block.input ?? {}, cwd));
      }
    }
    const error = str(rec.error);
    if (error && !sawText) out.push({ type: "error", message: error, raw: rec });
    return out;
  }

  perEvent(assistant, resultEvents);
  return jsonRecordParser({
    record(rec, line) {
      switch (rec.type) {
        case "system": {
          if (rec.subtype !== "init") return [rawRecord(rec, line)];
          // Built field by field (same key order compact() kept) rather than as a literal copied by compact().
          const event: AgentEventOf<"status"> = { type: "status", label: "initializing" };
          const model = str(rec.model);
          if (model !== undefined) event.model = model;
          const sessionId = str(rec.session_id);
          if (sessionId !== undefined) event.sessionId = sessionId;
          const version = str(rec.qodercli_version);
          if (version) event.detail = `qodercli ${version}`;
          return [event];
        }
        case "assistant":
          return assistant(rec, line);
        case "user": {
          const out: AgentEvent[] = [];
          for (const item of arr(obj(rec.message)?.content)) {
            const block = obj(item);
            const id = str(block?.tool_use_id);
            if (!block || block.type !== "tool_result" || !id) continue;
            const result: AgentEvent = { type: "tool_result", toolUseId: id, content: stringifyContent(block.content) };
            if (block.is_error === true) result.isError = true;
            out.push(result);
          }
          return out;
        }
        case "result":
          return resultEvents(rec);
        default:
          return [rawRecord(rec, line)];
      }
    },
    end() {
      return [];
    },
  });
}

/** `result`: usage, cost and duration; an error result also ends the run with a typed error. */
function resultEvents(rec: JsonRecord): AgentEvent[] {
  const isError = rec.is_error === true;
  // Field by field in the order compact() kept: a literal copied by compact() was a third of this parser's time.
  const usageEvent: AgentEventOf<"usage"> = { type: "usage" };
  const usage = claudeUsage(rec.usage);
  if (usage) usageEvent.usage = usage;
  const modelUsage = obj(rec.modelUsage);
  if (modelUsage) usageEvent.modelUsage = modelUsage;
  const costUsd = num(rec.total_cost_usd);
  if (costUsd !== undefined) usageEvent.costUsd = costUsd;
  const durationMs = num(rec.duration_ms);
  if (durationMs !== undefined) usageEvent.durationMs = durationMs;
  const stopReason = str(rec.stop_reason) ?? str(rec.subtype);
  if (stopReason !== undefined) usageEvent.stopReason = stopReason;
  if (!isError) return [usageEvent];
  usageEvent.isError = true;
  const subtype = str(rec.subtype);
  return [usageEvent, { type: "error", message: str(rec.result) || `qodercli run failed: ${subtype ?? "unknown"}`, code: subtype ?? "result_error", terminal: true }];
}
