/**
 * `copilot-stream-json`: `copilot -p … --output-format json`. Each line is `{type, data, id, timestamp, parentId}`
 * with a dotted type; text and reasoning arrive as deltas, tools as execution start/complete, and the final
 * top-level `result` carries the session id (the only place it appears), usage and the exit code.
 */
import type { AgentEvent } from "../../contracts/events.ts";
import { jsonRecordParser, rawRecord } from "./json-lines.ts";
import { toolUseEvent } from "./tool-kind.ts";
import type { ParserContext, StreamParser } from "./types.ts";
import { compact, num, obj, parseToolInput, pickUsage, str, stringifyContent } from "./wire.ts";

/** Records we understand but have nothing to show for. */
const IGNORED = new Set([
  "session.skills_loaded",
  "session.mcp_servers_loaded",
  "session.info",
  "user.message",
  "model.call_start",
  "model.call_end",
  "assistant.message_start",
  "assistant.tool_call_delta",
  "assistant.turn_end",
  "assistant.idle",
  "assistant.reasoning",
]);

/** Creates a parser for one Copilot run. */
export function createCopilotParser(ctx: ParserContext = {}): StreamParser {
  const cwd = ctx.cwd;
  const emittedTools = new Set<string>();
  const streamedMessages = new Set<string>();
  let thinking = false;
  let streamedAny = false;

  return jsonRecordParser({
    record(rec, line) {
      const type = str(rec.type) ?? "";
      const data = obj(rec.data) ?? {};
      if (IGNORED.has(type)) return [];
      switch (type) {
        case "session.tools_updated":
          return [compact({ type: "status", label: "initializing", model: str(data.model) })];
        case "assistant.turn_start":
          thinking = false;
          return [{ type: "status", label: "streaming" }];
        case "assistant.reasoning_delta": {
          const delta = str(data.deltaContent) ?? "";
          if (delta === "") return [];
          const out: AgentEvent[] = [];
          if (!thinking) {
            thinking = true;
            out.push({ type: "thinking_start" });
          }
          out.push({ type: "thinking_delta", delta });
          return out;
        }
        case "assistant.message_delta": {
          const delta = str(data.deltaContent) ?? "";
          if (delta === "") return [];
          const messageId = str(data.messageId);
          if (messageId) streamedMessages.add(messageId);
          streamedAny = true;
          thinking = false;
          return [{ type: "text_delta", delta }];
        }
        case "assistant.message": {
          // Whole-message fallback for a message whose deltas never arrived.
          const messageId = str(data.messageId);
          const content = str(data.content) ?? "";
          const streamed = messageId ? streamedMessages.has(messageId) : streamedAny;
          return content === "" || streamed ? [] : [{ type: "text_delta", delta: content }];
        }
        case "tool.execution_start": {
          const id = str(data.toolCallId) ?? "tool";
          if (emittedTools.has(id)) return [];
          emittedTools.add(id);
          const args = typeof data.arguments === "string" ? parseToolInput(data.arguments) : (data.arguments ?? {});
          return [toolUseEvent(id, str(data.toolName) ?? "tool", args, cwd)];
        }
        case "tool.execution_complete": {
          const result = data.result;
          const record = obj(result);
          const content = record ? stringifyContent(record.content ?? record.detailedContent ?? record) : stringifyContent(result ?? obj(data.error)?.message ?? "");
          const event: AgentEvent = { type: "tool_result", toolUseId: str(data.toolCallId) ?? "tool", content };
          if (data.success === false) event.isError = true;
          return [event];
        }
        case "session.error":
          return [compact({ type: "error", message: str(data.message) ?? "copilot session error", code: str(data.errorType) ?? "session_error" })];
        case "session.warning":
          return [compact({ type: "status", label: "warning", detail: str(data.message) })];
        case "result": {
          const exitCode = num(rec.exitCode);
          const failed = rec.success === false || (exitCode !== undefined && exitCode !== 0);
          const usageRec = obj(rec.usage) ?? {};
          const usage = pickUsage(usageRec, { input_tokens: "inputTokens", output_tokens: "outputTokens", cached_read_tokens: "cacheReadTokens", cached_write_tokens: "cacheWriteTokens" });
          const out: AgentEvent[] = [];
          const sessionId = str(rec.sessionId);
          if (sessionId) out.push({ type: "status", label: "completed", sessionId });
          out.push(compact({ type: "usage", usage, durationMs: num(usageRec.sessionDurationMs), stopReason: failed ? "error" : "completed", isError: failed ? true : undefined }));
          return out;
        }
        default:
          return [rawRecord(rec, line)];
      }
    },
    end() {
      return [];
    },
  });
}
