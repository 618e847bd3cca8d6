/**
 * One run's event log: assigns ids, keeps a bounded in-memory tail for live readers, appends to sqlite in batches,
 * and lets any number of subscribers replay "everything after id N" and then follow live — with no gap and no
 * duplicate at the hand-over, because replay and live delivery are both keyed by id. Events are kept as their JSON
 * text (LoggedEvent), serialized once at append: what sqlite stores and what every SSE reader writes.
 */
import type { NewRunEvent, RunEvent } from "../contracts/runs.ts";
import { parseLoggedEvent, toLoggedEvent, type LoggedEvent } from "../store/event-json.ts";

export interface EventPersistence {
  appendEvents(runId: string, events: readonly LoggedEvent[]): void;
  eventsAfter(runId: string, afterId: number, limit?: number): LoggedEvent[];
  lastEventId(runId: string): number;
}

export type EventLogOptions = {
  /**
   * At most this many events are kept in memory for fast replay (older ones are read back from sqlite, flushed first,
   * so a reader never sees a gap). Small on purpose: a tail event outlives a young-generation collection and is then
   * freed only by a full one, so at 5k events/s a 1000-event tail kept ~5 MB more resident across ten runs than 256.
   */
  tailSize?: number;
  /** Flush to sqlite at most this long after an append. */
  flushDelayMs?: number;
  /** …or as soon as this many events are pending. */
  flushBatchSize?: number;
};

type Waiter = () => void;

/** Default `tailSize`: ~50 ms of a 5k events/s stream, seconds of a real CLI's. */
const DEFAULT_TAIL_SIZE = 256;

/** Most events handed to a batch reader at once (a replay of a long run is cut into chunks of this size). */
const MAX_BATCH = 1000;

export class RunEventLog {
  readonly #tail: LoggedEvent[] = [];
  readonly #pending: LoggedEvent[] = [];
  readonly #waiters = new Set<Waiter>();
  readonly #tailSize: number;
  readonly #flushDelayMs: number;
  readonly #flushBatchSize: number;
  #lastId: number;
  #flushTimer: ReturnType<typeof setTimeout> | undefined;
  #ended = false;

  constructor(
    readonly runId: string,
    private readonly persistence: EventPersistence,
    options: EventLogOptions = {},
  ) {
    this.#tailSize = options.tailSize ?? DEFAULT_TAIL_SIZE;
    this.#flushDelayMs = options.flushDelayMs ?? 50;
    this.#flushBatchSize = options.flushBatchSize ?? 500;
    // Ids continue after whatever an earlier daemon persisted for this run.
    this.#lastId = persistence.lastEventId(runId);
  }

  get lastId(): number {
    return this.#lastId;
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** Assign the next id and a timestamp, keep, persist (batched) and wake readers. Returns the stored event. */
  append(event: NewRunEvent): RunEvent {
    if (this.#ended) throw new Error(`run ${this.runId} has already ended`);
    const stored = { ...event, id: ++this.#lastId, ts: Date.now() } as RunEvent;
    const logged = toLoggedEvent(stored);
    this.#tail.push(logged);
    // Trimmed to half its size at once, not by one per event: a per-append splice allocates an array and shifts the
    // whole tail on every event. The tail holds between half of tailSize and tailSize.
    if (this.#tail.length > this.#tailSize) this.#tail.splice(0, this.#tail.length - (this.#tailSize >> 1));
    this.#pending.push(logged);
    if (stored.type === "end") {
      this.#ended = true;
      this.flush();
    } else if (this.#pending.length >= this.#flushBatchSize) {
      this.flush();
    } else {
      this.#flushTimer ??= setTimeout(() => this.flush(), this.#flushDelayMs);
    }
    // Each waiter deletes itself; deleting the entry being visited is safe during Set iteration (no per-event copy).
    // No iterator at all when nobody waits (a busy reader is still working through its last batch).
    if (this.#waiters.size) for (const wake of this.#waiters) wake();
    return stored;
  }

  /** Write pending events to sqlite now. */
  flush(): void {
    if (this.#flushTimer) clearTimeout(this.#flushTimer);
    this.#flushTimer = undefined;
    if (!this.#pending.length) return;
    const batch = this.#pending.splice(0);
    this.persistence.appendEvents(this.runId, batch);
  }

  /**
   * The next events with id > afterId: from the tail when it reaches back far enough, else one page (at most
   * `MAX_BATCH`) from sqlite. A reader far behind (a late SSE client of a 100k-event run) thus holds one page at a
   * time, never the whole run: it asks again from the page's last id.
   */
  eventsAfter(afterId: number): LoggedEvent[] {
    const first = this.#tail[0];
    // Tail ids are contiguous, so the position of afterId + 1 is arithmetic.
    if (first && first.id <= afterId + 1) return this.#tail.slice(afterId + 1 - first.id);
    this.flush();
    return this.persistence.eventsAfter(this.runId, afterId, MAX_BATCH);
  }

  /**
   * Replay everything after `afterId`, then follow live until the `end` event (inclusive) or `signal` aborts.
   */
  async *follow(afterId: number, signal?: AbortSignal): AsyncGenerator<RunEvent> {
    for await (const batch of this.followBatches(afterId, signal)) yield* batch.map(parseLoggedEvent);
  }

  /**
   * `follow`, a batch at a time: each wake-up yields every event appended since the last one (at most
   * `MAX_BATCH`), so a reader at 5k events/s pays one await per batch instead of several per event.
   */
  async *followBatches(afterId: number, signal?: AbortSignal): AsyncGenerator<LoggedEvent[]> {
    let cursor = afterId;
    for (;;) {
      if (signal?.aborted) return;
      const available = this.eventsAfter(cursor);
      for (let start = 0; start < available.length; start += MAX_BATCH) {
        const batch = start === 0 && available.length <= MAX_BATCH ? available : available.slice(start, start + MAX_BATCH);
        const last = batch[batch.length - 1]!;
        cursor = last.id;
        yield batch;
        // `end` is the last event a log takes, so it always closes its batch.
        if (last.type === "end") return;
      }
      if (this.#ended && cursor >= this.#lastId) return;
      if (available.length) continue;
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.#waiters.delete(wake);
          signal?.removeEventListener("abort", wake);
          resolve();
        };
        this.#waiters.add(wake);
        signal?.addEventListener("abort", wake, { once: true });
      });
    }
  }
}

/** Replay of a run no live log holds (finished before this daemon started, or evicted). */
export async function* replayPersisted(persistence: EventPersistence, runId: string, afterId: number): AsyncGenerator<RunEvent> {
  for await (const page of replayPersistedBatches(persistence, runId, afterId)) yield* page.map(parseLoggedEvent);
}

/** `replayPersisted`, a page of at most `MAX_BATCH` events at a time. */
export async function* replayPersistedBatches(persistence: EventPersistence, runId: string, afterId: number): AsyncGenerator<LoggedEvent[]> {
  let cursor = afterId;
  for (;;) {
    const page = persistence.eventsAfter(runId, cursor, MAX_BATCH);
    if (!page.length) return;
    yield page;
    cursor = page.at(-1)!.id;
  }
}
