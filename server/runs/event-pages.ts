/**
 * A run's stored events read back a page at a time: for readers behind a live log, and for replays of runs no live
 * log holds. Each page is counted by the garbage pacer (a late reader of a long run reads hundreds of MB this way).
 */
import type { RunEvent } from "../contracts/runs.ts";
import { parseLoggedEvent, type LoggedEvent } from "../store/event-json.ts";
import { bulkTextPacer } from "./garbage-pacer.ts";

export interface EventPersistence {
  appendEvents(runId: string, events: readonly LoggedEvent[]): void;
  /** Persisted events with id > afterId, in order: at most `limit`, and no more than fit in `maxChars` (at least one). */
  eventsAfter(runId: string, afterId: number, limit?: number, maxChars?: number): LoggedEvent[];
  /** The highest id the run has used: its last persisted event's (or an older od's id reservation, if higher). */
  lastEventId(runId: string): number;
}

/** Most events handed to a batch reader at once (a replay of a long run is cut into chunks of this size). */
export const MAX_BATCH = 1000;

/**
 * Most characters of JSON in one batch, and the default bound of the in-memory tail: a count alone does not bound
 * memory when single events are large (1000 one-MiB stdout chunks of a plain CLI would be a 1 GB batch).
 */
export const MAX_BATCH_CHARS = 4 * 1024 * 1024;

/** Replay of a run no live log holds (finished before this daemon started, or evicted). */
export async function* replayPersisted(persistence: EventPersistence, runId: string, afterId: number): AsyncGenerator<RunEvent> {
  for await (const page of replayPersistedBatches(persistence, runId, afterId)) yield* page.map(parseLoggedEvent);
}

/** `replayPersisted`, a page of at most `MAX_BATCH` events (and `MAX_BATCH_CHARS`) at a time. */
export async function* replayPersistedBatches(persistence: EventPersistence, runId: string, afterId: number): AsyncGenerator<LoggedEvent[]> {
  let cursor = afterId;
  for (;;) {
    const page = readPage(persistence, runId, cursor);
    if (!page.length) return;
    yield page;
    cursor = page.at(-1)!.id;
  }
}

/**
 * One page of persisted events for a reader that is behind. A late reader of a long run reads hundreds of MB this
 * way, page after page, each dead as soon as it is written out: the pages are counted by the garbage pacer.
 */
export function readPage(persistence: EventPersistence, runId: string, afterId: number): LoggedEvent[] {
  const page = persistence.eventsAfter(runId, afterId, MAX_BATCH, MAX_BATCH_CHARS);
  let chars = 0;
  for (const event of page) chars += event.json.length;
  bulkTextPacer.count(chars);
  return page;
}
