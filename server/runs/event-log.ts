/**
 * One run's event log: assigns ids, appends to sqlite in group commits, keeps a bounded in-memory tail for live
 * readers, and lets any number of subscribers replay "everything after id N" and then follow live — with no gap and
 * no duplicate at the hand-over, because replay and live delivery are both keyed by id. Events are kept as their JSON
 * text (LoggedEvent), serialized once at append: what sqlite stores and what every SSE reader writes.
 *
 * Durable before delivered: an event reaches readers (and the tail) only once the commit that stores it has returned,
 * so whatever a reader saw is in every later replay, even after a kill -9 of the daemon. Appends made in one turn of
 * the event loop (a chunk of a CLI's output) share one commit, made at the end of that turn.
 */
import type { NewRunEvent, RunEvent } from "../contracts/runs.ts";
import { parseLoggedEvent, toLoggedEvent, type LoggedEvent } from "../store/event-json.ts";
import { MAX_BATCH, MAX_BATCH_CHARS, readPage, type EventPersistence } from "./event-pages.ts";
import { perEvent } from "../platform/jit-tiers.ts";

export type { EventPersistence };
export { replayPersisted, replayPersistedBatches } from "./event-pages.ts";

export type EventLogOptions = {
  /**
   * At most this many events are kept in memory for fast replay (older ones are read back from sqlite, flushed first,
   * so a reader never sees a gap). Small on purpose: a tail event outlives a young-generation collection and is then
   * freed only by a full one, so at 5k events/s a 1000-event tail kept ~5 MB more resident across ten runs than 256.
   */
  tailSize?: number;
  /** …and at most this many characters of their JSON (events can be large: a plain CLI's stdout chunks). */
  tailChars?: number;
  /**
   * Flush to sqlite at most this long after an append; 0 (the default): at the end of the event loop's turn, so a
   * reader waits for no timer (readers get an event only once it is stored).
   */
  flushDelayMs?: number;
  /** …or as soon as this many events are pending. */
  flushBatchSize?: number;
  /** …or as soon as this many characters of JSON are pending. */
  flushChars?: number;
  /** Told the length of each event's JSON as it is logged (the run service's meter of event text). */
  countText?: (chars: number) => void;
  /** A run created just now: nothing of it is stored yet, so its ids start at 1 without asking the store. */
  newRun?: boolean;
  /**
   * Told, once, that a commit failed (a full disk): the run should end. Until its `end`, events wait in memory and are
   * tried again with it; no reader gets any of them before they are stored.
   */
  onStoreError?: (error: unknown) => void;
};

/**
 * A live reader that has caught up: appends are pushed to its queue, so it never reads back from the tail or sqlite
 * (a slice, or a page parsed back from its rows) however far the tail moves on while it writes a batch. A reader
 * whose queue outgrows `FOLLOWER_MAX_EVENTS` / `FOLLOWER_MAX_CHARS` (a stalled SSE client) loses the queue and reads
 * from the tail or sqlite again until it has caught up, so a slow reader costs bounded memory.
 */
type Follower = {
  queue: LoggedEvent[];
  chars: number;
  /** Not queueing: behind, or not yet caught up; reads with `eventsAfter`. */
  behind: boolean;
  wake: (() => void) | undefined;
};

/**
 * Default `tailSize`: ~6 ms of a 5k events/s stream, seconds of a real CLI's. A reader further behind reads a page from
 * sqlite, which holds everything but the last `DEFAULT_FLUSH_DELAY_MS` (and is flushed first).
 */
const DEFAULT_TAIL_SIZE = 32;

/**
 * Default `flushDelayMs`: none. An event waits in memory only until the turn that appended it ends, which also keeps
 * pending events short-lived (what outlives a young-generation collection is freed only by a full one).
 */
const DEFAULT_FLUSH_DELAY_MS = 0;

/**
 * Commits come at most this often while events keep coming (the first after a pause is made at once). A CLI that od
 * keeps up with arrives a line per chunk, and a commit per line writes a few WAL pages per event: a 50k-event HTTP API
 * run took 1.66 s instead of 0.96 s. A millisecond groups the lines of a burst and adds at most that to the delivery
 * of an event.
 */
const MIN_COMMIT_GAP_MS = 1;

/**
 * Most events, and characters of JSON, a caught-up reader's queue holds before it falls back to reading: about a
 * second of a busy stream. A queue is the one place a run's events outlive young-generation collections, so a longer
 * one is paid for twice: a reader behind a 50k-event burst with room for 20 000 held the daemon's peak ~20 MB higher
 * and cost it ~30 ms more CPU per run than re-reading the persisted pages (HTTP API run, dist/od, interleaved).
 */
const FOLLOWER_MAX_EVENTS = 5000;
const FOLLOWER_MAX_CHARS = 8 * 1024 * 1024;

/** Characters of JSON of a run's last events stored when its writes failed (a full disk): see `#lastWords`. */
const LAST_WORDS_CHARS = 16 * 1024;


export class RunEventLog {
  static {
    perEvent(this.prototype.append, this.prototype.flush, this.prototype.eventsAfter);
  }

  readonly #tail: LoggedEvent[] = [];
  readonly #pending: LoggedEvent[] = [];
  readonly #followers = new Set<Follower>();
  readonly #tailSize: number;
  readonly #tailCharsMax: number;
  readonly #flushDelayMs: number;
  readonly #flushBatchSize: number;
  readonly #flushChars: number;
  readonly #countText: ((chars: number) => void) | undefined;
  readonly #onStoreError: ((error: unknown) => void) | undefined;
  /** A write of the run failed (a commit here, or its answer file): no more commits are tried until the run's `end`. */
  #storeFailed = false;
  #tailChars = 0;
  #pendingChars = 0;
  /** The last id handed out by `append`. */
  #lastId: number;
  /** The last id committed to sqlite: readers get nothing past it. */
  #storedId: number;
  #flushTimer: { cancel(): void } | undefined;
  /** When the last commit was made (performance.now()). */
  #committedAt = -Infinity;
  #ended = false;

  constructor(
    readonly runId: string,
    private readonly persistence: EventPersistence,
    options: EventLogOptions = {},
  ) {
    this.#tailSize = options.tailSize ?? DEFAULT_TAIL_SIZE;
    this.#tailCharsMax = options.tailChars ?? MAX_BATCH_CHARS;
    this.#flushDelayMs = options.flushDelayMs ?? DEFAULT_FLUSH_DELAY_MS;
    this.#flushBatchSize = options.flushBatchSize ?? 500;
    this.#flushChars = options.flushChars ?? 1024 * 1024;
    this.#countText = options.countText;
    this.#onStoreError = options.onStoreError;
    perEvent(this.#delivered, this.#deliver, this.#trimTail, this.#nextFor); // private methods: only an instance reaches them
    // Ids continue after whatever an earlier daemon persisted for this run: readers never saw more than that.
    this.#lastId = options.newRun ? 0 : persistence.lastEventId(runId);
    this.#storedId = this.#lastId;
  }

  get lastId(): number {
    return this.#lastId;
  }

  get ended(): boolean {
    return this.#ended;
  }

  /**
   * Assign the next id and a timestamp (now, or `at` for an event recorded after the fact: the end of a run od lost is
   * dated when the run was last seen) and queue it for the next commit, after which readers get it.
   */
  append(event: NewRunEvent, at = Date.now()): RunEvent {
    if (this.#ended) throw new Error(`run ${this.runId} has already ended`);
    const stored = { ...event, id: ++this.#lastId, ts: at } as RunEvent;
    const logged = toLoggedEvent(stored);
    this.#pending.push(logged);
    this.#pendingChars += logged.json.length;
    this.#countText?.(logged.json.length);
    if (stored.type === "end") {
      this.#ended = true;
      this.flush();
    } else if (this.#storeFailed) {
      // Kept for the attempt made with `end`.
    } else if (this.#pending.length >= this.#flushBatchSize || this.#pendingChars >= this.#flushChars) {
      this.flush();
    } else {
      this.#flushTimer ??= this.#scheduleFlush();
    }
    return stored;
  }

  #scheduleFlush(): { cancel(): void } {
    const flush = () => {
      this.#flushTimer = undefined;
      this.flush();
    };
    const delay = Math.max(this.#flushDelayMs, MIN_COMMIT_GAP_MS - (performance.now() - this.#committedAt));
    if (delay > 0) {
      const timer = setTimeout(flush, delay);
      return { cancel: () => clearTimeout(timer) };
    }
    const immediate = setImmediate(flush);
    return { cancel: () => clearImmediate(immediate) };
  }

  /**
   * Another of the run's writes failed for want of room (its answer file): from now on the log commits nothing until
   * the run's `end`, which is tried as after a failed commit of its own, so the room left goes to the run's last words
   * and records, not to more of its events.
   */
  holdUntilEnd(): void {
    this.#storeFailed = true;
    this.#flushTimer?.cancel();
    this.#flushTimer = undefined;
  }

  /** Commit pending events to sqlite now, then hand them to the tail and to readers (after a failed write: only with `end`). */
  flush(): void {
    this.#flushTimer?.cancel();
    this.#flushTimer = undefined;
    if (!this.#pending.length || (this.#storeFailed && !this.#ended)) return;
    const batch = this.#pending.splice(0);
    this.#pendingChars = 0;
    if (this.#storeFailed) return this.#lastWords(batch);
    try {
      this.persistence.appendEvents(this.runId, batch);
    } catch (error) {
      this.#storeFailedWith(batch, error);
      return;
    }
    this.#delivered(batch);
  }

  /** A commit failed: reported once; the batch waits for `end` (or, ending with it, goes as the run's last words). */
  #storeFailedWith(batch: LoggedEvent[], error: unknown): void {
    if (!this.#storeFailed) {
      this.#storeFailed = true;
      this.#onStoreError?.(error);
    }
    if (batch[batch.length - 1]!.type === "end") return this.#lastWords(batch);
    this.#pending.unshift(...batch);
    for (const logged of batch) this.#pendingChars += logged.json.length;
  }

  /**
   * The batch ending a run whose writes failed: only its last words are tried (the error that says why, then `end`,
   * at most LAST_WORDS_CHARS), whatever room there is now: the room a full disk gave back (the reserve) is for the run's
   * record and message, not for the events held since. What is not stored is dropped (nobody saw it); if even the last
   * words fail, readers still get them from memory, so none waits forever, and the next od ends the run again from what
   * is stored.
   */
  #lastWords(batch: LoggedEvent[]): void {
    const last = lastEventsWithin(batch, LAST_WORDS_CHARS);
    try {
      this.persistence.appendEvents(this.runId, last);
    } catch {
      // Not stored: delivered all the same (below).
    }
    // The tail's ids are contiguous; these may follow a gap.
    this.#tail.length = 0;
    this.#tailChars = 0;
    this.#delivered(last);
  }

  #delivered(batch: readonly LoggedEvent[]): void {
    this.#committedAt = performance.now();
    this.#storedId = batch[batch.length - 1]!.id;
    for (const logged of batch) {
      this.#tail.push(logged);
      this.#tailChars += logged.json.length;
    }
    if (this.#tail.length > this.#tailSize || this.#tailChars > this.#tailCharsMax) this.#trimTail();
    for (const follower of this.#followers) this.#deliver(follower, batch);
  }

  #deliver(follower: Follower, batch: readonly LoggedEvent[]): void {
    if (!follower.behind) {
      for (const logged of batch) {
        follower.queue.push(logged);
        follower.chars += logged.json.length;
      }
      if (follower.queue.length > FOLLOWER_MAX_EVENTS || follower.chars > FOLLOWER_MAX_CHARS) {
        follower.behind = true;
        follower.queue = [];
        follower.chars = 0;
      }
    }
    const wake = follower.wake;
    follower.wake = undefined;
    wake?.();
  }

  /**
   * Trims the tail to half its limits at once, not by one per event: a per-append splice allocates an array and
   * shifts the whole tail on every event. It may end empty (one huge event): readers then read from sqlite.
   */
  #trimTail(): void {
    let drop = 0;
    let chars = this.#tailChars;
    while (drop < this.#tail.length && (this.#tail.length - drop > this.#tailSize >> 1 || chars > this.#tailCharsMax / 2)) {
      chars -= this.#tail[drop]!.json.length;
      drop++;
    }
    this.#tail.splice(0, drop);
    this.#tailChars = chars;
  }

  /**
   * The next stored events with id > afterId: from the tail when it reaches back far enough, else one page (at most
   * `MAX_BATCH`) from sqlite. A reader far behind (a late SSE client of a 100k-event run) thus holds one page at a
   * time, never the whole run: it asks again from the page's last id. Events not yet committed are not among them.
   */
  eventsAfter(afterId: number): LoggedEvent[] {
    if (afterId >= this.#storedId) return [];
    const first = this.#tail[0];
    // Tail ids are contiguous, so the position of afterId + 1 is arithmetic.
    if (first && first.id <= afterId + 1) return this.#tail.slice(afterId + 1 - first.id);
    const page = readPage(this.persistence, this.runId, afterId);
    // Nothing stored after afterId, yet newer ids were delivered: an end that a full disk kept from being stored.
    return page.length ? page : this.#tail.filter((event) => event.id > afterId);
  }

  /**
   * Replay everything after `afterId`, then follow live until the `end` event (inclusive) or `signal` aborts.
   */
  async *follow(afterId: number, signal?: AbortSignal): AsyncGenerator<RunEvent> {
    for await (const batch of this.followBatches(afterId, signal)) yield* batch.map(parseLoggedEvent);
  }

  /**
   * `follow`, a batch at a time: each wake-up yields every event appended since the last one (at most `MAX_BATCH`
   * events and `MAX_BATCH_CHARS` of JSON), so a reader at 5k events/s pays one await per batch instead of several
   * per event.
   */
  async *followBatches(afterId: number, signal?: AbortSignal): AsyncGenerator<LoggedEvent[]> {
    let cursor = afterId;
    const follower: Follower = { queue: [], chars: 0, behind: true, wake: undefined };
    const wake = () => follower.wake?.();
    this.#followers.add(follower);
    signal?.addEventListener("abort", wake);
    try {
      for (;;) {
        if (signal?.aborted) return;
        const available = this.#nextFor(follower, cursor);
        for (let start = 0, end = 0; start < available.length; start = end) {
          end = batchEnd(available, start);
          const batch = start === 0 && end === available.length ? available : available.slice(start, end);
          const last = batch[batch.length - 1]!;
          cursor = last.id;
          yield batch;
          // `end` is the last event a log takes, so it always closes its batch.
          if (last.type === "end") return;
        }
        if (this.#ended && cursor >= this.#storedId && !this.#pending.length) return;
        if (available.length || follower.queue.length) continue;
        await new Promise<void>((resolve) => (follower.wake = resolve));
      }
    } finally {
      this.#followers.delete(follower);
      signal?.removeEventListener("abort", wake);
    }
  }

  /**
   * What `follower` reads next after `cursor`: its queue once it has caught up; otherwise the tail or a page of
   * sqlite, and when that reaches the newest event, the follower is caught up and queues from the next append on.
   */
  #nextFor(follower: Follower, cursor: number): LoggedEvent[] {
    if (!follower.behind) {
      const queued = follower.queue;
      follower.queue = [];
      follower.chars = 0;
      return queued;
    }
    const available = this.eventsAfter(cursor);
    // Nothing newer is stored (even when an earlier daemon's id reservation left a gap): caught up.
    if (!available.length || available[available.length - 1]!.id >= this.#storedId) follower.behind = false;
    return available;
  }
}

perEvent(batchEnd);

/** Where the batch of `events` that starts at `start` ends: after MAX_BATCH events or MAX_BATCH_CHARS, at least one. */
function batchEnd(events: readonly LoggedEvent[], start: number): number {
  const last = Math.min(events.length, start + MAX_BATCH);
  let chars = 0;
  for (let i = start; i < last; i++) {
    chars += events[i]!.json.length;
    if (chars >= MAX_BATCH_CHARS) return i + 1;
  }
  return last;
}

/** The last events of `events` whose JSON adds up to at most `maxChars` (at least the last one). */
function lastEventsWithin(events: readonly LoggedEvent[], maxChars: number): LoggedEvent[] {
  let start = events.length - 1;
  for (let chars = events[start]!.json.length; start > 0 && chars + events[start - 1]!.json.length <= maxChars; start--) chars += events[start - 1]!.json.length;
  return events.slice(start);
}
