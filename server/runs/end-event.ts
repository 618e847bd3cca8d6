/**
 * The events that close a run: what a succeeded run's warning adds before its end, and the `end` itself, built
 * from how the run ended. Pure.
 */
import type { NewRunEvent, RunWarning } from "../contracts/runs.ts";
import type { RunEnding } from "./outcome.ts";

/** The `end` of a run that ends at `endedAt` (now, or when a run od lost was last seen). */
export function endEvent(ending: RunEnding, exit: { code: number | null; signal: string | null }, files: string[], startedAt: number, endedAt = Date.now()): NewRunEvent {
  return {
    type: "end",
    status: ending.status,
    code: exit.code,
    signal: exit.signal,
    ...(ending.failureCategory ? { failureCategory: ending.failureCategory } : {}),
    ...(ending.failureDetail ? { failureDetail: ending.failureDetail } : {}),
    reason: ending.reason,
    ...(ending.guidance ? { guidance: ending.guidance } : {}),
    ...(ending.fixCommand ? { fixCommand: ending.fixCommand } : {}),
    files,
    durationMs: endedAt - startedAt,
    ...(ending.warning ? { warning: ending.warning } : {}),
  };
}

/**
 * A warning said before the end that carries it: live (a `diagnostic`) and in the stored message (a non-terminal
 * agent `error`, which the fold keeps).
 */
export function warningEvents(warning: RunWarning): NewRunEvent[] {
  return [
    { type: "diagnostic", kind: "tool_calls_failed", message: warning.message, detail: warning },
    { type: "agent", event: { type: "error", message: warning.message, code: warning.code, terminal: false } },
  ];
}
