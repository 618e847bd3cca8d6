import type { RunEvent } from "../contracts/runs.ts";

/** Each event is serialized once, when it is appended; persistence and every SSE reader reuse that text. */
const serializedEvents = new WeakMap<RunEvent, string>();

/** The JSON text of an event (cached for events appended in this process). */
export function serializedEvent(event: RunEvent): string {
  let json = serializedEvents.get(event);
  if (json === undefined) {
    json = JSON.stringify(event);
    serializedEvents.set(event, json);
  }
  return json;
}
