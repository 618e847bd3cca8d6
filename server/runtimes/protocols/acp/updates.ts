/**
 * Maps ACP `session/update` notifications onto AgentEvents. Stateful per session: text and thought chunks are
 * de-duplicated when an agent sends cumulative snapshots instead of deltas, tool calls are accumulated per id,
 * and unknown update kinds become `status` events rather than being dropped.
 */
import type { AgentEvent } from "../../../contracts/events.ts";
import { isRecord } from "../../streams/tool-kind.ts";
import { AcpToolCalls } from "./tool-calls.ts";

/** Update kinds that carry nothing for the run's stream. */
const IGNORED = new Set(["usage_update", "session_info_update", "available_commands_update", "user_message_chunk", "current_mode_update", "config_option_update"]);

/** What one update produced. */
export type MappedUpdate = { events: AgentEvent[]; turnEnded: boolean };

export class AcpUpdateMapper {
  readonly tools: AcpToolCalls;
  private segment: { kind: "message" | "thought" | null; text: string } = { kind: null, text: "" };
  private promptSentAt: number | null = null;
  private sawVisibleText = false;

  constructor(
    cwd: string,
    private readonly now: () => number = Date.now,
  ) {
    this.tools = new AcpToolCalls(cwd, now);
  }

  /** Marks the moment the prompt was sent (for the `streaming` status's ttftMs). */
  promptSent(): void {
    this.promptSentAt = this.now();
  }

  /** Maps the params of one `session/update` notification. */
  map(params: unknown): MappedUpdate {
    const update = isRecord(params) && isRecord(params.update) ? params.update : null;
    if (!update) return { events: [{ type: "raw", line: JSON.stringify(params ?? null) }], turnEnded: false };
    const kind = typeof update.sessionUpdate === "string" ? update.sessionUpdate : "";
    switch (kind) {
      case "agent_message_chunk":
        return { events: this.chunk("message", chunkText(update.content)), turnEnded: false };
      case "agent_thought_chunk":
        return { events: this.chunk("thought", chunkText(update.content)), turnEnded: false };
      case "tool_call":
      case "tool_call_update":
        return { events: [...this.endSegment(), ...this.tools.apply(update)], turnEnded: false };
      case "turn_end":
        return { events: this.endSegment(), turnEnded: true };
      default:
        if (IGNORED.has(kind)) return { events: [], turnEnded: false };
        return { events: [...this.endSegment(), unknownKindStatus(kind, update)], turnEnded: false };
    }
  }

  /** Closes an open thought block (prompt over). */
  finish(): AgentEvent[] {
    return this.endSegment();
  }

  private chunk(kind: "message" | "thought", text: string | null): AgentEvent[] {
    if (text === null || text === "") return [];
    const events: AgentEvent[] = [];
    if (this.segment.kind !== kind) {
      events.push(...this.endSegment());
      this.segment = { kind, text: "" };
      if (kind === "thought") events.push({ type: "thinking_start" });
    }
    const delta = snapshotSuffix(this.segment.text, text);
    if (delta === "") return events;
    this.segment.text += delta;
    if (kind === "thought") {
      events.push({ type: "thinking_delta", delta });
      return events;
    }
    if (!this.sawVisibleText) {
      this.sawVisibleText = true;
      const ttft = this.promptSentAt === null ? undefined : this.now() - this.promptSentAt;
      events.push(ttft === undefined ? { type: "status", label: "streaming" } : { type: "status", label: "streaming", ttftMs: ttft });
    }
    events.push({ type: "text_delta", delta });
    return events;
  }

  private endSegment(): AgentEvent[] {
    const wasThought = this.segment.kind === "thought";
    this.segment = { kind: null, text: "" };
    return wasThought ? [{ type: "thinking_end" }] : [];
  }
}

/**
 * The new part of `incoming` given the text already emitted in this segment: a cumulative snapshot (the emitted text
 * plus more) yields only its suffix, an exact repeat yields nothing, and anything else is a plain delta.
 */
export function snapshotSuffix(emitted: string, incoming: string): string {
  if (emitted.length >= 2 && incoming.startsWith(emitted)) return incoming.slice(emitted.length);
  if (emitted.length >= 2 && incoming === emitted) return "";
  return incoming;
}

function chunkText(content: unknown): string | null {
  if (isRecord(content) && typeof content.text === "string") return content.text;
  if (Array.isArray(content)) return content.map(chunkText).filter((t): t is string => t !== null).join("");
  return null;
}

function unknownKindStatus(kind: string, update: Record<string, unknown>): AgentEvent {
  const { sessionUpdate: _kind, ...rest } = update;
  const detail = JSON.stringify(rest);
  return { type: "status", label: kind === "" ? "unknown_update" : kind, ...(detail !== "{}" ? { detail: detail.slice(0, 2000) } : {}) };
}
