import { expect, test } from "bun:test";
import { collectAndSweep } from "../../server/platform/memory.ts";
import { bulkTextPacer, createGarbagePacer, createTextMeter, loggedTextCounter } from "../../server/runs/garbage-pacer.ts";
import { replayPersistedBatches, type EventPersistence } from "../../server/runs/event-log.ts";
import type { LoggedEvent } from "../../server/store/event-json.ts";

/** A pacer on a fake clock; each collection is noted at its start and takes `timing.takesMs` of the clock (default 0). */
function pacerWithClock(everyChars: number, minIntervalMs: number, timing: { maxShare?: number; maxPauseMs?: number; takesMs?: number } = {}) {
  const clock = { now: 1000, takesMs: timing.takesMs ?? 0 };
  const collections: number[] = [];
  const { maxShare, maxPauseMs } = timing;
  const collect = () => {
    collections.push(clock.now);
    clock.now += clock.takesMs;
  };
  const pacer = createGarbagePacer({ everyChars, minIntervalMs, maxShare, maxPauseMs, collect, now: () => clock.now });
  return { pacer, clock, collections };
}

test("collects once the counted text reaches the threshold, and starts counting again", () => {
  const { pacer, clock, collections } = pacerWithClock(1000, 250);
  clock.now += 300;
  pacer.count(600);
  expect(collections).toEqual([]);
  expect(pacer.pendingChars).toBe(600);
  pacer.count(400);
  expect(collections).toEqual([1300]);
  expect(pacer.pendingChars).toBe(0);
  expect(pacer.totalChars).toBe(1000);
});

test("never collects more often than the minimum interval, however much text goes by", () => {
  const { pacer, clock, collections } = pacerWithClock(1000, 250);
  pacer.count(5000); // within the interval of its creation: a short burst costs no collection
  expect(collections).toEqual([]);
  clock.now += 250;
  pacer.count(1);
  expect(collections).toEqual([1250]);
  clock.now += 100;
  pacer.count(5000);
  expect(collections).toEqual([1250]);
  clock.now += 150;
  pacer.count(0);
  expect(collections).toEqual([1250, 1500]);
});

test("with a share of the time, the next collection waits for the last one's duration over that share", () => {
  // Each collection takes 20 ms of the clock; at most 10 % of the time: 200 ms from the end of one to the next.
  const { pacer, clock, collections } = pacerWithClock(100, 50, { maxShare: 0.1, takesMs: 20 });
  clock.now += 50;
  pacer.count(100);
  expect(collections).toEqual([1050]);
  clock.now += 150; // 150 ms after the first ended: past the minimum interval, within its share
  pacer.count(1000);
  expect(collections).toEqual([1050]);
  clock.now += 50;
  pacer.count(0);
  expect(collections).toEqual([1050, 1270]);
});

test("a collection longer than the pause it may take spaces the next one further, in proportion", () => {
  // 20 ms, twice the 10 ms pause: twice the 200 ms its 10 % share would wait.
  const { pacer, clock, collections } = pacerWithClock(100, 0, { maxShare: 0.1, maxPauseMs: 10, takesMs: 20 });
  clock.now += 1;
  pacer.count(100);
  expect(collections).toEqual([1001]);
  clock.takesMs = 5;
  clock.now += 399;
  pacer.count(100);
  expect(collections).toEqual([1001]);
  clock.now += 1;
  pacer.count(0);
  expect(collections).toEqual([1001, 1421]);
  // 5 ms, within the pause: its share alone spaces the next (50 ms).
  clock.now += 50;
  pacer.count(100);
  expect(collections).toEqual([1001, 1421, 1476]);
});

test("the run service's counter feeds the meter always, the lone run's pacer while one run is live, the other while more are", () => {
  const meter = createTextMeter();
  const counting = () => {
    const counted: number[] = [];
    return { counted, pacer: { count: (chars: number) => void counted.push(chars), pendingChars: 0, totalChars: 0 } };
  };
  const alone = counting();
  const together = counting();
  let live = 1;
  const count = loggedTextCounter(meter, { alone: alone.pacer, together: together.pacer }, () => live);
  count(100);
  expect(meter.chars).toBe(100);
  expect(alone.counted).toEqual([100]);
  expect(together.counted).toEqual([]);
  live = 2;
  count(50);
  expect(meter.chars).toBe(150);
  expect(alone.counted).toEqual([100]);
  expect(together.counted).toEqual([50]);
});

/** A persistence that keeps nothing and replays `stored`. */
function persistence(stored: LoggedEvent[] = []): EventPersistence {
  return {
    appendEvents: () => {},
    eventsAfter: (_runId, afterId) => stored.filter((event) => event.id > afterId),
    lastEventId: () => 0,
  };
}

// The process's pacer is shared with every other test of the shard: its pending count may be reset by a collection
// another test's text set off, so this reads its life total.
test("a replay from storage counts the pages it reads", async () => {
  const stored = [1, 2, 3].map((id) => ({ id, type: "diagnostic", json: JSON.stringify({ id, type: "diagnostic", message: "y".repeat(1000) }) }) as LoggedEvent);
  const before = bulkTextPacer.totalChars;
  let events = 0;
  for await (const page of replayPersistedBatches(persistence(stored), "run_replay", 0)) events += page.length;
  expect(events).toBe(3);
  expect(bulkTextPacer.totalChars - before).toBeGreaterThan(3000);
});

test("collectAndSweep frees promoted garbage", async () => {
  /** Promoted garbage made anew, then one collectAndSweep: whether it was freed. */
  const freedOnce = async () => {
    const ref = (() => {
      const holder: { items?: object } = { items: Array.from({ length: 200_000 }, (_, i) => ({ i, text: `item ${i}` })) };
      Bun.gc(false);
      Bun.gc(false);
      const weak = new WeakRef(holder.items!);
      holder.items = undefined;
      return weak;
    })();
    await Bun.sleep(0);
    collectAndSweep();
    await Bun.sleep(0);
    return ref.deref() === undefined;
  };
  // The collector scans the stack conservatively: a stale slot can keep one array alive by chance (seen in some
  // mixes of files in one process, where even Bun.gc(true) then kept it). So up to three tries, each with fresh
  // garbage. An eden-only collection, or none, frees promoted garbage in no try.
  let freed = false;
  for (let attempt = 0; attempt < 3 && !freed; attempt++) freed = await freedOnce();
  expect(freed).toBe(true);
});
