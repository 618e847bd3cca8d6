/**
 * A run event as the log keeps it and sqlite stores it: its id and type beside its JSON text. An event is serialized
 * once, when it is appended; its object is garbage right after, so a busy run's memory holds short strings rather
 * than event objects, and persistence and every SSE reader write that same text.
 */
import type { NewRunEvent, RunEvent, RunEventType } from "../contracts/runs.ts";

export type LoggedEvent = { readonly id: number; readonly type: RunEventType; readonly json: string };

export function toLoggedEvent(event: RunEvent): LoggedEvent {
  return { id: event.id, type: event.type, json: JSON.stringify(event) };
}

/**
 * `toLoggedEvent({ ...event, id, ts })` without the copy: the event's own JSON with its id and timestamp written after
 * its last field, where the spread would have put them. An object of every event of a busy run less, and a third less
 * time per event (100k text deltas: ~35 → ~22 ms). An event that carries `id` or `ts` itself (none of od's do) takes
 * the spread, which overwrites them in place.
 */
export function loggedEventOf(event: NewRunEvent, id: number, ts: number): LoggedEvent {
  if ("id" in event || "ts" in event) return toLoggedEvent({ ...event, id, ts } as RunEvent);
  const json = JSON.stringify(event);
  return { id, type: event.type, json: `${json.slice(0, -1)}${json.length > 2 ? "," : ""}"id":${id},"ts":${ts}}` };
}

/** A stored row's text back to a LoggedEvent (its id and type read from the text itself). */
export function loggedEventFromJson(json: string): LoggedEvent {
  const { id, type } = JSON.parse(json) as RunEvent;
  return { id, type, json };
}

export function parseLoggedEvent(logged: LoggedEvent): RunEvent {
  return JSON.parse(logged.json) as RunEvent;
}
