/**
 * Folds a run's AgentEvents into the compact form stored on the assistant message: merged text and thinking,
 * tool calls with their results, usage, errors and artifacts. Deltas and live-only events are not kept.
 */
import type { AgentEvent } from "../contracts/events.ts";
import type { PersistedEvent } from "../contracts/projects.ts";

export class EventFolder {
  readonly events: PersistedEvent[] = [];
  #text = "";

  /** The assistant's visible answer so far. */
  get text(): string {
    return this.#text;
  }

  push(event: AgentEvent): void {
    const last = this.events.at(-1);
    switch (event.type) {
      case "text_delta":
        this.#text += event.delta;
        if (last?.type === "text") last.text += event.delta;
        else this.events.push({ type: "text", text: event.delta });
        return;
      case "thinking_delta":
        if (last?.type === "thinking") last.text += event.delta;
        else this.events.push({ type: "thinking", text: event.delta });
        return;
      case "tool_use":
        this.events.push({ type: "tool_use", id: event.id, name: event.name, input: event.input, kind: event.kind, ...(event.path ? { path: event.path } : {}) });
        return;
      case "tool_result":
        this.events.push({ type: "tool_result", toolUseId: event.toolUseId, content: event.content.slice(0, 20_000), ...(event.isError ? { isError: true } : {}) });
        return;
      case "usage":
        this.events.push({
          type: "usage",
          ...(event.usage?.input_tokens !== undefined ? { inputTokens: event.usage.input_tokens } : {}),
          ...(event.usage?.output_tokens !== undefined ? { outputTokens: event.usage.output_tokens } : {}),
          ...(event.costUsd !== undefined ? { costUsd: event.costUsd } : {}),
          ...(event.durationMs !== undefined ? { durationMs: event.durationMs } : {}),
        });
        return;
      case "error":
        this.events.push({ type: "error", message: event.message, ...(event.code ? { code: event.code } : {}) });
        return;
      case "artifact":
        this.events.push({ type: "artifact", name: event.name, ...(event.path ? { path: event.path } : {}) });
        return;
      case "status":
        if (event.label === "warning" || event.label === "retrying" || event.label === "compacting") {
          this.events.push({ type: "status", label: event.label, ...(event.detail ? { detail: event.detail } : {}) });
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
}
