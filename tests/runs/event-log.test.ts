import { expect, test } from "bun:test";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { replayPersistedBatches, RunEventLog, type EventPersistence } from "../../server/runs/event-log.ts";
import { Store } from "../../server/store/store.ts";
import type { LoggedEvent } from "../../server/store/event-json.ts";

/** sqlite stand-in: keeps what was flushed, and counts reads so tests can tell tail replay from persisted replay. */
function memoryPersistence() {
  const rows: LoggedEvent[] = [];
  const persistence = {
    reads: 0,
    reserved: 0,
    /** Events handed out by reads, in total. */
    served: 0,
    appendEvents: (_runId: string, events: readonly LoggedEvent[]) => void rows.push(...events),
    eventsAfter(_runId: string, afterId: number, limit = 10_000) {
      persistence.reads++;
      const page = rows.filter((e) => e.id > afterId).slice(0, limit);
      persistence.served += page.length;
      return page;
    },
    lastEventId: (): number => Math.max(rows.at(-1)?.id ?? 0, persistence.reserved),
  } satisfies EventPersistence & { reads: number; reserved: number; served: number };
  return persistence;
}

const diagnostic = (n: number) => ({ type: "diagnostic", kind: "test", message: `m${n}` }) as const;

test("a follower gets everything appended between two reads as one batch, ending with the end event", async () => {
  const log = new RunEventLog("run_1", memoryPersistence());
  const batches = log.followBatches(0)[Symbol.asyncIterator]();
  const first = batches.next();
  log.append(diagnostic(1));
  expect((await first).value.map((e: LoggedEvent) => e.id)).toEqual([1]);
  for (let n = 2; n <= 4; n++) log.append(diagnostic(n));
  log.append({ type: "end", status: "succeeded", code: 0, signal: null, reason: "done", files: [], durationMs: 1 });
  expect((await batches.next()).value.map((e: LoggedEvent) => e.id)).toEqual([2, 3, 4, 5]);
  expect((await batches.next()).done).toBe(true);
});

test("a long replay is cut into batches of at most 1000 events, with no gap or duplicate", async () => {
  const log = new RunEventLog("run_1", memoryPersistence(), { tailSize: 10_000 });
  for (let n = 1; n <= 2500; n++) log.append(diagnostic(n));
  log.append({ type: "end", status: "succeeded", code: 0, signal: null, reason: "done", files: [], durationMs: 1 });
  const sizes: number[] = [];
  const ids: number[] = [];
  for await (const batch of log.followBatches(0)) {
    sizes.push(batch.length);
    ids.push(...batch.map((e) => e.id));
  }
  expect(sizes).toEqual([1000, 1000, 501]);
  expect(ids).toEqual(Array.from({ length: 2501 }, (_, i) => i + 1));
});

test("the tail serves recent events from memory and older ones from persistence", () => {
  const persistence = memoryPersistence();
  const log = new RunEventLog("run_1", persistence, { tailSize: 100 });
  for (let n = 1; n <= 1000; n++) log.append(diagnostic(n));
  expect(log.eventsAfter(990).map((e) => e.id)).toEqual([991, 992, 993, 994, 995, 996, 997, 998, 999, 1000]);
  expect(persistence.reads).toBe(0);
  expect(log.eventsAfter(0).map((e) => e.id)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
  expect(persistence.reads).toBeGreaterThan(0);
});

test("by default the in-memory tail is small (at most 32 events): a reader further behind reads back from persistence", () => {
  const persistence = memoryPersistence();
  const log = new RunEventLog("run_1", persistence);
  for (let n = 1; n <= 5000; n++) log.append(diagnostic(n));
  expect(log.eventsAfter(5000 - 16)).toHaveLength(16);
  expect(persistence.reads).toBe(0);
  expect(log.eventsAfter(5000 - 33).map((e) => e.id)).toEqual(Array.from({ length: 33 }, (_, i) => 5000 - 32 + i));
  expect(persistence.reads).toBeGreaterThan(0);
});

test("an event is serialized once: persistence and every reader get the same text, ids and types beside it", async () => {
  const persistence = memoryPersistence();
  const log = new RunEventLog("run_1", persistence);
  const stored = log.append(diagnostic(1));
  log.append({ type: "end", status: "succeeded", code: 0, signal: null, reason: "done", files: [], durationMs: 1 });
  const [first] = log.eventsAfter(0);
  expect(first).toEqual({ id: 1, type: "diagnostic", json: JSON.stringify(stored) });
  const followed: LoggedEvent[] = [];
  for await (const batch of log.followBatches(0)) followed.push(...batch);
  expect(followed[0]!.json).toBe(first!.json);
  expect(persistence.eventsAfter("run_1", 0)[0]!.json).toBe(first!.json);
  const parsed = [];
  for await (const event of log.follow(0)) parsed.push(event);
  expect(parsed).toEqual([stored, expect.objectContaining({ type: "end", id: 2 })]);
});

// Issue #34: a reader must never see an event that a crash can take back.
test("durable before delivered: no reader gets an event before its commit; a log reopened after a crash goes on after it", async () => {
  const persistence = memoryPersistence();
  const crashed = new RunEventLog("run_1", persistence, { flushDelayMs: 60_000 });
  const batches = crashed.followBatches(0)[Symbol.asyncIterator]();
  const first = batches.next();
  for (let n = 1; n <= 5; n++) crashed.append(diagnostic(n));
  expect(crashed.eventsAfter(0)).toEqual([]); // not stored yet: nobody gets them…
  let delivered = false;
  void first.then(() => (delivered = true));
  await Bun.sleep(5);
  expect(delivered).toBe(false);
  crashed.flush(); // …until their commit has returned
  expect(persistence.eventsAfter("run_1", 0).map((e) => e.id)).toEqual([1, 2, 3, 4, 5]);
  expect((await first).value.map((e: LoggedEvent) => e.id)).toEqual([1, 2, 3, 4, 5]);
  for (let n = 6; n <= 8; n++) crashed.append(diagnostic(n)); // the daemon dies before these are stored

  // An older od's reservation is still honoured, so no id it may have sent is reused.
  persistence.reserved = 7;
  const recovered = new RunEventLog("run_1", persistence);
  const end = recovered.append({ type: "end", status: "failed", code: null, signal: null, reason: "od stopped", files: [], durationMs: 1 });
  expect(end.id).toBe(8);
  expect(recovered.eventsAfter(5).map((e) => e.id)).toEqual([8]);
});

test("appends made in one turn of the event loop share one commit, made before the next turn", async () => {
  const persistence = memoryPersistence();
  const commits: number[][] = [];
  const counting = { ...persistence, appendEvents: (runId: string, events: readonly LoggedEvent[]) => (commits.push(events.map((e) => e.id)), persistence.appendEvents(runId, events)) };
  const log = new RunEventLog("run_1", counting);
  for (let n = 1; n <= 3; n++) log.append(diagnostic(n));
  expect(commits).toEqual([]);
  await new Promise((resolve) => setImmediate(resolve));
  expect(commits).toEqual([[1, 2, 3]]);
});

// Issue #17: a late reader of a long live run must read it back a page at a time, not all at once.
test("a late reader of a long live run replays it from persistence one page at a time", async () => {
  const persistence = memoryPersistence();
  const log = new RunEventLog("run_1", persistence);
  for (let n = 1; n <= 20_000; n++) log.append(diagnostic(n));
  const batches = log.followBatches(0)[Symbol.asyncIterator]();
  const first = await batches.next();
  expect(first.value.map((e: LoggedEvent) => e.id)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
  // Only the page it is reading was loaded, not the other 19 000 events.
  expect(persistence.served).toBeLessThanOrEqual(1000);
  let seen = 1000;
  log.append({ type: "end", status: "succeeded", code: 0, signal: null, reason: "done", files: [], durationMs: 1 });
  for (let next = await batches.next(); !next.done; next = await batches.next()) {
    expect(next.value[0]!.id).toBe(seen + 1);
    seen += next.value.length;
  }
  expect(seen).toBe(20_001);
  expect(persistence.served).toBeLessThanOrEqual(20_001);
});

// Issue #17: events can be large (a plain CLI's stdout chunks); counts alone would let a page or the tail hold GBs.
test("large events: every batch a reader gets, live or replayed from sqlite, stays within a few MB of JSON", async () => {
  const store = Store.open(":memory:", openBunSqlite);
  try {
    const log = new RunEventLog("run_1", store.runs);
    const big = "x".repeat(100_000);
    for (let n = 1; n <= 300; n++) log.append({ type: "diagnostic", kind: "test", message: big });
    log.append({ type: "end", status: "succeeded", code: 0, signal: null, reason: "done", files: [], durationMs: 1 });
    const MB = 1024 * 1024;
    // A reader of the live log, and one of the finished run as after a daemon restart (sqlite only).
    for (const batches of [log.followBatches(0), replayPersistedBatches(store.runs, "run_1", 0)]) {
      const ids: number[] = [];
      for await (const batch of batches) {
        expect(batch.reduce((chars, e) => chars + e.json.length, 0)).toBeLessThanOrEqual(4 * MB + 101_000);
        ids.push(...batch.map((e) => e.id));
      }
      expect(ids).toEqual(Array.from({ length: 301 }, (_, i) => i + 1));
    }
    // One sqlite page holds only what fits (here 10 events of 100 K), and always at least one event.
    expect(store.runs.eventsAfter("run_1", 0, 1000, 1_000_000)).toHaveLength(10);
    expect(store.runs.eventsAfter("run_1", 0, 1000, 1)).toHaveLength(1);
  } finally {
    store.close();
  }
});

test("a caught-up reader that falls far behind the tail gets every event from memory, never from persistence", async () => {
  const persistence = memoryPersistence();
  const log = new RunEventLog("run_1", persistence, { tailSize: 16 });
  const ids: number[] = [];
  const reading = (async () => {
    for await (const batch of log.followBatches(0)) {
      ids.push(...batch.map((e) => e.id));
      // While it handles one batch, far more than the tail holds is appended.
      if (ids.length === 1) {
        for (let n = 2; n <= 3000; n++) log.append(diagnostic(n));
        log.append({ type: "end", status: "succeeded", code: 0, signal: null, reason: "done", files: [], durationMs: 1 });
      }
    }
  })();
  log.append(diagnostic(1));
  await reading;
  expect(ids).toEqual(Array.from({ length: 3001 }, (_, i) => i + 1));
  expect(persistence.reads).toBe(0);
});

test("a reader whose queue overflows (a stalled client) falls back to persistence, with no gap or duplicate", async () => {
  const persistence = memoryPersistence();
  const log = new RunEventLog("run_1", persistence, { tailSize: 16 });
  const batches = log.followBatches(0)[Symbol.asyncIterator]();
  const first = batches.next();
  log.append(diagnostic(1));
  const ids = (await first).value.map((e: LoggedEvent) => e.id);
  // More than a follower's queue holds, while the reader does not read.
  for (let n = 2; n <= 25_000; n++) log.append(diagnostic(n));
  log.append({ type: "end", status: "succeeded", code: 0, signal: null, reason: "done", files: [], durationMs: 1 });
  for (let next = await batches.next(); !next.done; next = await batches.next()) ids.push(...next.value.map((e: LoggedEvent) => e.id));
  expect(ids).toEqual(Array.from({ length: 25_001 }, (_, i) => i + 1));
  expect(persistence.reads).toBeGreaterThan(0);
});

test("each logged event's JSON length is counted once, as it is logged (the run service's meter of event text)", () => {
  const counted: number[] = [];
  const persistence = memoryPersistence();
  const log = new RunEventLog("run_1", persistence, { countText: (chars) => counted.push(chars) });
  for (let n = 1; n <= 3; n++) log.append(diagnostic(n));
  log.flush();
  expect(counted).toEqual(persistence.eventsAfter("run_1", 0).map((event) => event.json.length));
});

// Issue #34: a full disk fails the run, not the daemon, and a reader never waits forever.
test("a failed commit is reported once; events wait for the end, whose last words are stored and delivered", async () => {
  const persistence = memoryPersistence();
  let full = true;
  const failing = {
    ...persistence,
    appendEvents(runId: string, events: readonly LoggedEvent[]) {
      if (full) throw Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
      persistence.appendEvents(runId, events);
    },
  };
  const errors: unknown[] = [];
  const log = new RunEventLog("run_1", failing, { onStoreError: (error) => errors.push(error) });
  const batches = log.followBatches(0)[Symbol.asyncIterator]();
  const first = batches.next();
  log.append(diagnostic(1));
  log.flush();
  for (let n = 2; n <= 3; n++) log.append(diagnostic(n));
  log.flush();
  expect(errors).toHaveLength(1);
  expect(log.eventsAfter(0)).toEqual([]);
  full = false; // the reserve is released: room for the last words
  log.append({ type: "error", message: "disk full", error: { code: "DISK_FULL", message: "disk full" } });
  log.append({ type: "end", status: "failed", code: null, signal: null, reason: "disk full", files: [], durationMs: 1 });
  // All of the batch went in with the end: it is within the last words' size (a larger one is cut to them, below).
  expect((await first).value.map((e: LoggedEvent) => e.type)).toEqual(["diagnostic", "diagnostic", "diagnostic", "error", "end"]);

  const refusing = { ...memoryPersistence(), appendEvents: () => failing.appendEvents("run_2", []) };
  full = true;
  const refused = new RunEventLog("run_2", refusing, { onStoreError: () => {} });
  const reading = (async () => {
    const ids: number[] = [];
    for await (const batch of refused.followBatches(0)) ids.push(...batch.map((e) => e.id));
    return ids;
  })();
  for (let n = 1; n <= 3; n++) refused.append(diagnostic(n));
  refused.flush();
  refused.append({ type: "end", status: "failed", code: null, signal: null, reason: "disk full", files: [], durationMs: 1 });
  // Nothing could be stored: the reader still gets the end (from memory) and stops waiting.
  expect(await reading).toEqual([1, 2, 3, 4]);
});

test("after a failed write, the end stores only the run's last words, though there is room again", () => {
  // The room a full disk gives back (the reserve) is for the run's record and message: the events held since the
  // failure are not stored with the end, however many there are.
  const persistence = memoryPersistence();
  let full = true;
  const committed: LoggedEvent[][] = [];
  const failing = {
    ...persistence,
    appendEvents(runId: string, events: readonly LoggedEvent[]) {
      if (full) throw Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
      committed.push([...events]);
      persistence.appendEvents(runId, events);
    },
  };
  const log = new RunEventLog("run_1", failing, { onStoreError: () => {} });
  log.append(diagnostic(0));
  log.flush();
  full = false;
  for (let n = 1; n <= 200; n++) log.append({ type: "diagnostic", kind: "test", message: "x".repeat(1000) });
  log.flush(); // held: nothing is committed before the end
  expect(committed).toEqual([]);
  log.append({ type: "error", message: "disk full", error: { code: "DISK_FULL", message: "disk full" } });
  log.append({ type: "end", status: "failed", code: null, signal: null, reason: "disk full", files: [], durationMs: 1 });
  expect(committed).toHaveLength(1);
  const stored = committed[0]!;
  expect(stored.reduce((chars, logged) => chars + logged.json.length, 0)).toBeLessThanOrEqual(16 * 1024);
  expect(stored.slice(-2).map((logged) => logged.type)).toEqual(["error", "end"]);
});

test("held by another write's failure (the answer file), the log commits nothing until the end, then its last words", async () => {
  const persistence = memoryPersistence();
  const committed: LoggedEvent[][] = [];
  const log = new RunEventLog("run_1", { ...persistence, appendEvents: (runId, events) => (committed.push([...events]), persistence.appendEvents(runId, events)) });
  const reading = (async () => {
    const types: string[] = [];
    for await (const batch of log.followBatches(0)) types.push(...batch.map((logged) => logged.type));
    return types;
  })();
  log.append(diagnostic(1));
  log.flush();
  log.holdUntilEnd();
  for (let n = 2; n <= 100; n++) log.append({ type: "diagnostic", kind: "test", message: "x".repeat(1000) });
  log.flush();
  await new Promise((resolve) => setTimeout(resolve, 20)); // no timer commits them either
  expect(committed).toHaveLength(1);
  log.append({ type: "end", status: "failed", code: null, signal: null, reason: "store failed", files: [], durationMs: 1 });
  expect(committed).toHaveLength(2);
  expect(committed[1]!.at(-1)!.type).toBe("end");
  expect(committed[1]!.reduce((chars, logged) => chars + logged.json.length, 0)).toBeLessThanOrEqual(16 * 1024);
  // The reader got what was committed before, then the last words, and stopped.
  const types = await reading;
  expect(types[0]).toBe("diagnostic");
  expect(types.at(-1)).toBe("end");
});

test("a new run's log numbers its events from 1 without asking the store for its last id", () => {
  const persistence = memoryPersistence();
  let asked = 0;
  const log = new RunEventLog("run_1", { ...persistence, lastEventId: () => (asked++, persistence.lastEventId()) }, { newRun: true });
  expect(log.append(diagnostic(1)).id).toBe(1);
  expect(log.append(diagnostic(2)).id).toBe(2);
  expect(asked).toBe(0);
});
