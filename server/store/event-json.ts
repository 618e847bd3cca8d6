/**
 * A run event as the log keeps it and sqlite stores it: its id and type beside its JSON text. An event is serialized
 * once, when it is appended; its object is garbage right after, so a busy run's memory holds short strings rather
 * than event objects, and persistence and every SSE reader write that same text.
 */
import type { RunEvent, RunEventType } from "../contracts/runs.ts";
import { perEvent } from "../platform/jit-tiers.ts";

export type LoggedEvent = { readonly id: number; readonly type: RunEventType; readonly json: string };

export function toLoggedEvent(event: RunEvent): LoggedEvent {
  return { id: event.id, type: event.type, json: JSON.stringify(event) };
}

/** A stored row's text back to a LoggedEvent (its id and type read from the text itself). */
export function loggedEventFromJson(json: string): LoggedEvent {
  const { id, type } = JSON.parse(json) as RunEvent;
  return { id, type, json };
}

export function parseLoggedEvent(logged: LoggedEvent): RunEvent {
  return JSON.parse(logged.json) as RunEvent;
}

perEvent(toLoggedEvent, loggedEventFromJson, parseLoggedEvent);
