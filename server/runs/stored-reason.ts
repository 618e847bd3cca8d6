/**
 * The folded events a failed run's assistant message is stored with. When the run failed for a reason of its own
 * that the agent only saw the effect of (its connection or container was lost), the agent's errors about that
 * effect give way to the run's reason and code, so a reloaded conversation says what happened. Pure.
 */
import type { PersistedEvent } from "../contracts/projects.ts";
import type { RunEnding } from "./outcome.ts";

export function eventsWithRunReason(events: PersistedEvent[], ending: RunEnding): PersistedEvent[] {
  if (ending.status !== "failed" || !ending.symptoms) return events;
  const symptoms = new Set(ending.symptoms);
  const reason: PersistedEvent = { type: "error", message: ending.reason, ...(ending.errorCode ? { code: ending.errorCode } : {}) };
  return [...events.filter((event) => !(event.type === "error" && symptoms.has(event.message))), reason];
}
