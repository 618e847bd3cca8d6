/**
 * Decides the answer to one request from its conversation: the scenario comes from the last directive in the
 * latest real user prompt (default `text`), the step within the turn decides tool call versus final text.
 */
import { parseLastDirective } from "./directive.ts";
import { planShellCall, planWriteCall } from "./tools.ts";
import type { AnswerPlan, Conversation, Directive, ErrorPlan, PlannedToolCall } from "./types.ts";

/** Settings and mutable counters the planner shares across requests of one server. */
export type PlannerState = {
  slowIntervalMs: number;
  longDeltas: number;
  /** "fail N times" counters, keyed by request identity. */
  failures: Map<string, number>;
};

export const DEFAULT_WRITE_PATH = "od-fake.txt";
export const DEFAULT_WRITE_CONTENT = "hello from od-fake";
export const DEFAULT_SHELL_COMMAND = "echo od-fake-shell";

/** The directive of the latest real user prompt, if any. */
export function directiveOf(conversation: Conversation): Directive | undefined {
  const latest = conversation.userTexts.at(-1);
  return latest === undefined ? undefined : parseLastDirective(latest);
}

/** The answer text for the `text` scenario: how many real user prompts the request holds. */
export function userCountText(conversation: Conversation): string {
  return `od-fake: user_messages=${conversation.userTexts.length}`;
}

function chunks(text: string): string[] {
  const words = text.split(/(?<= )/);
  const out: string[] = [];
  for (let index = 0; index < words.length; index += 2) out.push(words.slice(index, index + 2).join(""));
  return out.length > 0 ? out : [""];
}

function textAnswer(text: string, extra: Partial<AnswerPlan> = {}): AnswerPlan {
  return { kind: "answer", textDeltas: chunks(text), toolCalls: [], pacing: { kind: "normal" }, ...extra };
}

function* slowTicks(): Generator<string> {
  for (let tick = 1; ; tick += 1) yield `tick ${tick} `;
}

function* longDeltas(count: number, closing: string): Generator<string> {
  for (let index = 1; index <= count; index += 1) yield `word${index} `;
  yield closing;
}

function idPrefix(conversation: Conversation): string {
  return conversation.api === "anthropic" ? "toolu_" : "call_";
}

function toolTurn(conversation: Conversation, calls: (PlannedToolCall | undefined)[], what: string): AnswerPlan {
  const base = userCountText(conversation);
  if (conversation.step > 0) {
    // The tool output itself is in the request log; echoing it would put timings into recorded fixtures.
    const received = conversation.lastToolResult === undefined ? "no tool result" : "tool result received";
    return textAnswer(`${base}; done: ${what}; ${received}`);
  }
  const present = calls.filter((item): item is PlannedToolCall => item !== undefined);
  if (present.length === 0) return textAnswer(`${base}; no suitable tool offered for ${what}`);
  return { kind: "answer", textDeltas: [], toolCalls: present, pacing: { kind: "normal" } };
}

function statusOf(directive: Directive, fallback: number): number {
  const value = Number(directive.positional[0] ?? directive.args.status);
  return Number.isInteger(value) && value >= 100 && value <= 599 ? value : fallback;
}

/** Plan the answer; may bump a "fail N times" counter in `state`. */
export function planAnswer(conversation: Conversation, state: PlannerState): AnswerPlan | ErrorPlan {
  const directive = directiveOf(conversation);
  const base = userCountText(conversation);
  const sideCall = conversation.tools.length === 0;
  const name = directive?.name ?? "text";
  const retryAfter = directive?.args["retry-after"] ?? directive?.args.retry_after;

  if (directive && name === "status") {
    const status = statusOf(directive, 401);
    return { kind: "error", status, message: `od-fake: simulated HTTP ${status}`, retryAfter: retryAfter ?? "0" };
  }
  if (directive && name === "fail") {
    const status = statusOf(directive, 500);
    const times = Number(directive.args.times ?? "1");
    const key = `${conversation.api}|${conversation.userTexts.length}|${conversation.userTexts.at(-1)}|${conversation.step}|${sideCall}`;
    const seen = state.failures.get(key) ?? 0;
    if (seen < times) {
      state.failures.set(key, seen + 1);
      return {
        kind: "error",
        status,
        message: `od-fake: simulated HTTP ${status} (${seen + 1} of ${times})`,
        retryAfter: retryAfter ?? "0",
      };
    }
    return textAnswer(`${base}; recovered after ${times} failures`);
  }
  if (sideCall) return textAnswer(base);

  const file = {
    path: directive?.args.path ?? DEFAULT_WRITE_PATH,
    content: directive?.args.content ?? DEFAULT_WRITE_CONTENT,
  };
  const command = directive?.args.cmd ?? directive?.args.command ?? DEFAULT_SHELL_COMMAND;
  const prefix = idPrefix(conversation);
  switch (name) {
    case "thinking":
      return textAnswer(base, { thinking: "od-fake is thinking about the request." });
    case "write":
      return toolTurn(conversation, [planWriteCall(conversation.tools, file, conversation.cwd, prefix)], `write ${file.path}`);
    case "shell":
      return toolTurn(conversation, [planShellCall(conversation.tools, command, prefix)], `shell ${command}`);
    case "write-shell":
      return toolTurn(
        conversation,
        [planWriteCall(conversation.tools, file, conversation.cwd, prefix), planShellCall(conversation.tools, command, prefix)],
        `write ${file.path} and shell ${command}`,
      );
    case "slow":
      return { kind: "answer", textDeltas: slowTicks(), toolCalls: [], pacing: { kind: "slow", intervalMs: Number(directive?.args.interval ?? state.slowIntervalMs) } };
    case "long":
      return { kind: "answer", textDeltas: longDeltas(Number(directive?.args.deltas ?? state.longDeltas), base), toolCalls: [], pacing: { kind: "normal" } };
    case "hang":
      return textAnswer(base, { pacing: { kind: "hang" } });
    case "drop":
      return textAnswer(base, { pacing: { kind: "drop" } });
    case "midstream-error":
      return textAnswer(base, { pacing: { kind: "midstream-error" } });
    default:
      return textAnswer(base);
  }
}
