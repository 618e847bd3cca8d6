/**
 * The run event stream: `GET /api/runs/:id/events` over EventSource. EventSource re-sends Last-Event-ID on its own
 * reconnects; after `end` (always the last event) we close it so it does not reconnect to a finished run.
 */
import type { RunEvent, RunEventType } from "../../server/contracts/runs.ts";
import { browserEventSource, type EventSourceFactory } from "./sse.ts";

/** Subscribes to one run's events; returns the unsubscribe function. */
export type RunEventStream = (runId: string, onEvent: (event: RunEvent) => void, onTrouble?: (message: string) => void) => () => void;

/** Every RunEvent name the stream can carry; the Record type makes the compiler check it against the contract. */
const RUN_EVENT_NAMES: Record<RunEventType, true> = {
  start: true,
  agent: true,
  stdout: true,
  stderr: true,
  diagnostic: true,
  error: true,
  end: true,
};

/** Parses a frame's data; null for anything that is not a RunEvent-looking object. */
export function parseRunEventData(data: unknown): RunEvent | null {
  if (typeof data !== "string") return null;
  try {
    const value = JSON.parse(data) as unknown;
    if (typeof value !== "object" || value === null) return null;
    const { id, type } = value as { id?: unknown; type?: unknown };
    if (typeof id !== "number" || typeof type !== "string" || !Object.hasOwn(RUN_EVENT_NAMES, type)) return null;
    return value as RunEvent;
  } catch {
    return null;
  }
}

export function createRunEventStream(open: EventSourceFactory = browserEventSource): RunEventStream {
  return (runId, onEvent, onTrouble) => {
    const source = open(`/api/runs/${encodeURIComponent(runId)}/events`);
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      source.close();
    };
    for (const name of Object.keys(RUN_EVENT_NAMES)) {
      source.addEventListener(name, (frame) => {
        // A connection failure is also dispatched as "error", but without data.
        const event = parseRunEventData((frame as MessageEvent).data);
        if (!event) {
          if (name === "error" && !closed) onTrouble?.("connection lost; reconnecting…");
          return;
        }
        onEvent(event);
        if (event.type === "end") close();
      });
    }
    return close;
  };
}
