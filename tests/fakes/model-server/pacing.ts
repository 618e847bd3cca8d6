/** Turns a plan's text deltas into a paced async sequence that stops when the client hangs up. */
import type { SseWriter } from "./http.ts";
import type { AnswerPlan } from "./types.ts";

/** A slow stream never runs longer than this, even if the client never hangs up. */
const SLOW_STREAM_CAP_MS = 10 * 60_000;

export async function* pacedDeltas(plan: AnswerPlan, writer: SseWriter): AsyncGenerator<string> {
  const pacing = plan.pacing;
  const started = Date.now();
  let count = 0;
  for (const delta of plan.textDeltas) {
    if (writer.closed) return;
    yield delta;
    count += 1;
    if (pacing.kind === "midstream-error") return;
    if (pacing.kind === "slow") {
      if (Date.now() - started > SLOW_STREAM_CAP_MS) return;
      if (!(await writer.pause(pacing.intervalMs))) return;
    } else if (count % 50 === 0) {
      // Let the event loop flush between bursts of a long answer.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
}

/** The whole text of a non-streaming answer (a slow plan is cut to a few ticks). */
export function fullText(plan: AnswerPlan): string {
  const parts: string[] = [];
  for (const delta of plan.textDeltas) {
    parts.push(delta);
    if (plan.pacing.kind === "slow" && parts.length >= 3) break;
  }
  return parts.join("");
}

/** Rough token count for usage fields. */
export function tokenCount(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}
