/**
 * The tool calls of one attempt and which of them failed, kept small whatever the run's length: counts, the first
 * few failed calls, and a bounded sample of their output. A CLI whose every command and write fails (its sandbox
 * cannot start in a container) still answers and exits 0; the run then ends `succeeded` with a warning that names
 * the failed calls and their likely cause, instead of saying nothing.
 */
import type { AgentEvent } from "../contracts/events.ts";
import type { FailedToolCall, RunWarning } from "../contracts/runs.ts";
import { recognizeSandboxFailure } from "../runtimes/sandbox-failures.ts";
import { perEvent } from "../platform/jit-tiers.ts";

/** Failed calls named in the warning. */
const MAX_NAMED = 10;
/** Failed calls named in its sentence. */
const MAX_IN_MESSAGE = 3;
const MAX_TARGET_CHARS = 120;
const MAX_ERROR_CHARS = 200;
/** Enough of the failed calls' output (and of the agent's warnings) to find a sandbox's signature in. */
const MAX_SAMPLE_CHARS = 16 * 1024;

export class ToolCallLedger {
  static {
    perEvent(this.prototype.push);
  }

  /** Calls started and not yet answered: their tool and target. */
  readonly #open = new Map<string, { tool: string; target?: string }>();
  #answered = 0;
  #failedCount = 0;
  readonly #failed: FailedToolCall[] = [];
  #failureSample = "";
  #warningSample = "";

  push(event: AgentEvent): void {
    switch (event.type) {
      case "tool_use": {
        // A todo list or a sub-agent is bookkeeping, not an action on the machine.
        if (event.kind === "todo" || event.kind === "task") return;
        const target = targetOf(event);
        this.#open.set(event.id, target ? { tool: event.name, target } : { tool: event.name });
        return;
      }
      case "tool_result": {
        const call = this.#open.get(event.toolUseId);
        if (!call) return;
        this.#open.delete(event.toolUseId);
        this.#answered++;
        if (!event.isError) return;
        this.#failedCount++;
        if (this.#failed.length < MAX_NAMED) this.#failed.push({ ...call, error: short(firstLine(event.content) || "failed", MAX_ERROR_CHARS) });
        this.#failureSample = sample(this.#failureSample, event.content);
        return;
      }
      case "status":
        if (event.label === "warning" && event.detail) this.#warningSample = sample(this.#warningSample, event.detail);
        return;
      default:
        return;
    }
  }

  /**
   * The warning of a run whose answered tool calls mostly failed (more than half, and at least two, or any when
   * their text shows the sandbox could not start); undefined otherwise. `stderr`: the agent's stderr tail, where a
   * CLI may warn about its sandbox.
   */
  warning(stderr: string): RunWarning | undefined {
    if (this.#failedCount === 0 || this.#failedCount * 2 <= this.#answered) return undefined;
    const sandbox = recognizeSandboxFailure(this.#failureSample) ?? recognizeSandboxFailure(`${this.#warningSample}\n${stderr}`);
    if (!sandbox && this.#failedCount < 2) return undefined;
    const named = this.#failed.slice(0, MAX_IN_MESSAGE).map((call) => `${call.tool}${call.target ? ` ${call.target}` : ""}: ${call.error}`);
    const more = this.#failedCount > named.length ? `; and ${this.#failedCount - named.length} more` : "";
    const cause = sandbox ? ` Likely cause: ${sandbox.cause}.` : "";
    return {
      code: "TOOL_CALLS_FAILED",
      message: `${this.#failedCount} of ${this.#answered} tool calls failed (${named.join("; ")}${more}).${cause}`,
      toolCalls: this.#answered,
      failedToolCalls: this.#failedCount,
      failed: [...this.#failed],
      ...(sandbox ? { likelyCause: sandbox.cause, evidence: sandbox.evidence, guidance: sandbox.guidance } : {}),
    };
  }
}

/** What a call acts on: its file, else its command. */
function targetOf(event: Extract<AgentEvent, { type: "tool_use" }>): string | undefined {
  if (event.path) return short(event.path, MAX_TARGET_CHARS);
  const input = event.input as { command?: unknown } | null | undefined;
  const command = typeof input === "object" && input !== null ? input.command : undefined;
  if (typeof command === "string") return short(command, MAX_TARGET_CHARS);
  if (Array.isArray(command)) return short(command.map(String).join(" "), MAX_TARGET_CHARS);
  return undefined;
}

function firstLine(text: string): string {
  return (
    text
      .replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, "")
      .split("\n")
      .map((line) => line.trim())
      .find(Boolean) ?? ""
  );
}

function short(text: string, max: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function sample(kept: string, text: string): string {
  return kept.length >= MAX_SAMPLE_CHARS ? kept : `${kept}${text.slice(0, MAX_SAMPLE_CHARS - kept.length)}\n`;
}
