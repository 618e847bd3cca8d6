/**
 * Folds a run's AgentEvents into the compact form stored on the assistant message: merged text and thinking,
 * tool calls with their results, usage, errors and artifacts. Deltas and live-only events are not kept.
 */
import type { AgentEvent } from "../contracts/events.ts";
import type { PersistedEvent } from "../contracts/projects.ts";
import { TextBuffer } from "./text-buffer.ts";

type MergedPart = Extract<PersistedEvent, { type: "text" | "thinking" }>;

export class EventFolder {
  readonly #events: PersistedEvent[] = [];
  /** The last folded event while it is a text or thinking part still taking deltas, and its buffered text. */
  #open: { part: MergedPart; text: TextBuffer } | undefined;

  /** The folded events so far (the open text or thinking part carries its text up to now). */
  get events(): PersistedEvent[] {
    if (this.#open) this.#open.part.text = this.#open.text.toString();
    return this.#events;
  }

  /**
   * The assistant's visible answer so far: its text parts joined. Derived rather than kept beside the parts, so a
   * streaming answer is held in memory once, not twice.
   */
  get text(): string {
    let text = "";
    for (const event of this.events) if (event.type === "text") text += event.text;
    return text;
  }

  push(event: AgentEvent): void {
    switch (event.type) {
      case "text_delta":
        this.#merge("text", event.delta);
        return;
      case "thinking_delta":
        this.#merge("thinking", event.delta);
        return;
      case "tool_use":
        this.#add({ type: "tool_use", id: event.id, name: event.name, input: event.input, kind: event.kind, ...(event.path ? { path: event.path } : {}), ...parentOf(event) });
        return;
      case "tool_result":
        this.#add({
          type: "tool_result",
          toolUseId: event.toolUseId,
          content: event.content.slice(0, 20_000),
          ...(event.isError ? { isError: true } : {}),
          ...(event.exitCode !== undefined ? { exitCode: event.exitCode } : {}),
          ...parentOf(event),
        });
        return;
      case "usage":
        this.#add({
          type: "usage",
          ...(event.usage?.input_tokens !== undefined ? { inputTokens: event.usage.input_tokens } : {}),
          ...(event.usage?.output_tokens !== undefined ? { outputTokens: event.usage.output_tokens } : {}),
          ...(event.costUsd !== undefined ? { costUsd: event.costUsd } : {}),
          ...(event.durationMs !== undefined ? { durationMs: event.durationMs } : {}),
        });
        return;
      case "error":
        this.#add({ type: "error", message: event.message, ...(event.code ? { code: event.code } : {}) });
        return;
      case "artifact":
        this.#add({ type: "artifact", name: event.name, ...(event.path ? { path: event.path } : {}) });
        return;
      case "status":
        if (event.label === "warning" || event.label === "retrying" || event.label === "compacting") {
          this.#add({ type: "status", label: event.label, ...(event.detail ? { detail: event.detail } : {}) });
        }
        return;
      case "thinking_start":
      case "thinking_end":
      case "thinking_tokens":
      case "tool_input_delta":
      case "turn_end":
      case "raw":
        return;
    }
  }

  /** Deltas of one kind in a row fold into one part; any other folded event ends it. */
  #merge(type: MergedPart["type"], delta: string): void {
    if (this.#open?.part.type === type) {
      this.#open.text.append(delta);
      return;
    }
    const part: MergedPart = { type, text: delta };
    this.#add(part);
    this.#open = { part, text: new TextBuffer(delta) };
  }

  #add(event: PersistedEvent): void {
    if (this.#open) {
      this.#open.part.text = this.#open.text.toString();
      this.#open = undefined;
    }
    this.#events.push(event);
  }
}

/** Keeps a sub-agent's link to the call that started it. */
function parentOf(event: { parentToolUseId?: string }): { parentToolUseId?: string } {
  return event.parentToolUseId ? { parentToolUseId: event.parentToolUseId } : {};
}
