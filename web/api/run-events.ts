/**
 * The run event stream: `GET /api/runs/:id/events` read with fetch, so it carries the page's bearer header
 * (EventSource cannot send one). On a dropped connection it reconnects after a pause with `Last-Event-ID`, so the
 * daemon replays exactly what was missed; after `end` (always the last event) it stops.
 */
import type { RunEvent, RunEventType } from "../../server/contracts/runs.ts";
import type { Api } from "./client.ts";
import { readSseFrames } from "./sse.ts";

/** Subscribes to one run's events; returns the unsubscribe function. */
export type RunEventStream = (runId: string, onEvent: (event: RunEvent) => void, onTrouble?: (message: string) => void) => () => void;

/** Every RunEvent name the stream can carry; the Record type makes the compiler check it against the contract. */
const RUN_EVENT_NAMES: Record<RunEventType, true> = {
  start: true,
  agent: true,
  stdout: true,
  stderr: true,
  diagnostic: true,
  notice: true,
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

export type RunEventStreamOptions = { retryMs?: number };

export function createRunEventStream(api: Pick<Api, "raw">, { retryMs = 1000 }: RunEventStreamOptions = {}): RunEventStream {
  return (runId, onEvent, onTrouble) => {
    const controller = new AbortController();
    const { signal } = controller;
    const url = `/api/runs/${encodeURIComponent(runId)}/events`;
    let lastId: number | undefined;

    /** Reads one connection; true once `end` arrived. A refusal that a retry cannot mend throws. */
    async function readOnce(): Promise<boolean> {
      const headers: Record<string, string> = { accept: "text/event-stream" };
      if (lastId !== undefined) headers["last-event-id"] = String(lastId);
      const res = await api.raw(url, { headers, signal });
      if (!res.ok || !res.body) {
        const message = ((await res.json().catch(() => null)) as { error?: { message?: string } } | null)?.error?.message;
        const error = new Error(message ?? `HTTP ${res.status}`);
        if (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429) throw Object.assign(error, { final: true });
        throw error;
      }
      for await (const frame of readSseFrames(res.body)) {
        const event = parseRunEventData(frame.data);
        if (!event || (lastId !== undefined && event.id <= lastId)) continue;
        lastId = event.id;
        onEvent(event);
        if (event.type === "end") return true;
      }
      return false;
    }

    void (async () => {
      while (!signal.aborted) {
        try {
          if (await readOnce()) return;
        } catch (error) {
          if (signal.aborted) return;
          if ((error as { final?: boolean }).final) {
            onTrouble?.(`cannot follow this run: ${(error as Error).message}`);
            return;
          }
        }
        if (signal.aborted) return;
        onTrouble?.("connection lost; reconnecting…");
        await new Promise((resolve) => setTimeout(resolve, retryMs));
      }
    })();
    return () => controller.abort();
  };
}
