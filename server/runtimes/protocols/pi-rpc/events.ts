/**
 * Maps pi rpc events (`pi --mode rpc` stdout records) onto AgentEvents. Stateful only for the last turn's error and
 * the usage of the run; the session decides when the run is over from the returned `signal`.
 */
import type { AgentEvent, AgentEventOf, Usage } from "../../../contracts/events.ts";
import { isRecord, toolUseEvent } from "../../streams/tool-kind.ts";

/** What a record means for the session's lifecycle. */
export type PiSignal = "agent_end" | "auto_retry_start" | "retry_exhausted" | null;

export type MappedPiEvent = { events: AgentEvent[]; signal: PiSignal };

/** Records that carry nothing for the stream. */
const SILENT = new Set(["message_start", "message_end", "tool_execution_update", "compaction_end", "response", "session"]);

export class PiEventMapper {
  /** Error message of the latest failed turn (cleared when a new attempt starts). */
  lastTurnError: string | null = null;

  constructor(
    private readonly cwd: string,
    private readonly now: () => number = Date.now,
  ) {}

  map(record: Record<string, unknown>): MappedPiEvent {
    const type = typeof record.type === "string" ? record.type : "";
    const none: MappedPiEvent = { events: [], signal: null };
    switch (type) {
      case "agent_start":
        this.lastTurnError = null;
        return { events: [{ type: "status", label: "working" }], signal: null };
      case "turn_start":
        return { events: [{ type: "status", label: "thinking" }], signal: null };
      case "message_update":
        return { events: this.messageUpdate(record.assistantMessageEvent), signal: null };
      case "turn_end":
        return { events: this.turnEnd(record.message), signal: null };
      case "tool_execution_start": {
        const id = typeof record.toolCallId === "string" ? record.toolCallId : "";
        const name = typeof record.toolName === "string" ? record.toolName : "tool";
        return { events: [toolUseEvent(id, name, record.args ?? {}, this.cwd, this.now())], signal: null };
      }
      case "tool_execution_end": {
        const result: AgentEventOf<"tool_result"> = { type: "tool_result", toolUseId: String(record.toolCallId ?? ""), content: contentText(record.result) };
        if (record.isError === true) result.isError = true;
        return { events: [result], signal: null };
      }
      case "extension_error":
        return { events: [{ type: "error", message: `pi extension error: ${messageOf(record.error)}`, code: "PI_EXTENSION_ERROR" }], signal: null };
      case "compaction_start":
        return { events: [{ type: "status", label: "compacting" }], signal: null };
      case "auto_retry_start":
        return { events: [{ type: "status", label: "retrying", ...(typeof record.errorMessage === "string" ? { detail: record.errorMessage } : {}) }], signal: "auto_retry_start" };
      case "auto_retry_end":
        return record.success === false ? { events: [], signal: "retry_exhausted" } : none;
      case "agent_end":
        return { events: [], signal: "agent_end" };
      default:
        if (SILENT.has(type)) return none;
        return { events: [{ type: "raw", line: JSON.stringify(record).slice(0, 4000) }], signal: null };
    }
  }

  private messageUpdate(event: unknown): AgentEvent[] {
    if (!isRecord(event)) return [];
    const delta = typeof event.delta === "string" ? event.delta : "";
    switch (event.type) {
      case "text_delta":
        return delta === "" ? [] : [{ type: "text_delta", delta }];
      case "thinking_start":
        return [{ type: "thinking_start" }];
      case "thinking_delta":
        return delta === "" ? [] : [{ type: "thinking_delta", delta }];
      case "thinking_end":
        return [{ type: "thinking_end" }];
      case "error":
        this.lastTurnError = messageOf(event.error ?? event.reason ?? "model error");
        return [];
      default:
        return [];
    }
  }

  private turnEnd(message: unknown): AgentEvent[] {
    if (!isRecord(message)) return [];
    const event: AgentEventOf<"usage"> = { type: "usage" };
    const usage = isRecord(message.usage) ? message.usage : null;
    if (usage) {
      const tokens: Usage = {};
      const pick = (key: keyof Usage, value: unknown) => {
        if (typeof value === "number") tokens[key] = value;
      };
      pick("input_tokens", usage.input);
      pick("output_tokens", usage.output);
      pick("cached_read_tokens", usage.cacheRead);
      pick("cached_write_tokens", usage.cacheWrite);
      pick("total_tokens", usage.totalTokens);
      if (Object.keys(tokens).length > 0) event.usage = tokens;
      if (isRecord(usage.cost) && typeof usage.cost.total === "number") event.costUsd = usage.cost.total;
    }
    if (typeof message.stopReason === "string") event.stopReason = message.stopReason;
    if (typeof message.model === "string") event.model = message.model;
    if (typeof message.provider === "string") event.provider = message.provider;
    if (message.stopReason === "error") {
      event.isError = true;
      this.lastTurnError = typeof message.errorMessage === "string" ? message.errorMessage : (this.lastTurnError ?? "pi turn failed");
    }
    return event.usage || event.stopReason ? [event] : [];
  }
}

/** The final error message carried by an `auto_retry_end {success:false}` record. */
export function retryExhaustedMessage(record: Record<string, unknown>, fallback: string | null): string {
  return messageOf(record.finalError ?? fallback ?? "pi gave up retrying");
}

function contentText(result: unknown): string {
  if (typeof result === "string") return result;
  if (!isRecord(result)) return "";
  if (Array.isArray(result.content)) {
    return result.content
      .map((block) => (isRecord(block) && typeof block.text === "string" ? block.text : ""))
      .filter((text) => text !== "")
      .join("\n");
  }
  return JSON.stringify(result);
}

function messageOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (isRecord(value) && typeof value.message === "string") return value.message;
  return JSON.stringify(value);
}
