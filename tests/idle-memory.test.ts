// The daemon hands memory back once start-up is over and whenever it has been quiet: never while a run is live.
import { describe, expect, test } from "bun:test";
import { IdleMemory } from "../server/idle-memory.ts";

/** A clock and timers the test moves by hand. */
function manualTime() {
  let now = 0;
  const timers: Array<{ at: number; fn: () => void; cancelled: boolean }> = [];
  return {
    now: () => now,
    schedule: (fn: () => void, ms: number) => {
      const timer = { at: now + ms, fn, cancelled: false };
      timers.push(timer);
      return () => void (timer.cancelled = true);
    },
    advance(ms: number) {
      const until = now + ms;
      for (;;) {
        const due = timers.filter((t) => !t.cancelled && t.at <= until).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        due.cancelled = true;
        now = due.at;
        due.fn();
      }
      now = until;
    },
    pending: () => timers.filter((t) => !t.cancelled).length,
  };
}

function setUp(runs = { started: 0, live: 0 }) {
  const time = manualTime();
  let releases = 0;
  const idle = new IdleMemory({ runs: () => runs, release: () => void releases++, quietMs: 1000, now: time.now, schedule: time.schedule });
  return { time, idle, releases: () => releases };
}

describe("IdleMemory", () => {
  test("releases once the daemon has been quiet for quietMs after a request, and not again until the next one", () => {
    const { time, idle, releases } = setUp();
    idle.activity();
    time.advance(999);
    expect(releases()).toBe(0);
    time.advance(1);
    expect(releases()).toBe(1);
    time.advance(10_000);
    expect(releases()).toBe(1); // nothing happened since: nothing more to hand back
    expect(time.pending()).toBe(0);
    idle.activity();
    time.advance(1000);
    expect(releases()).toBe(2);
  });

  test("each request starts the quiet again", () => {
    const { time, idle, releases } = setUp();
    idle.activity();
    for (let i = 0; i < 5; i++) {
      time.advance(600);
      idle.activity();
    }
    expect(releases()).toBe(0);
    time.advance(999);
    expect(releases()).toBe(0);
    time.advance(1);
    expect(releases()).toBe(1);
    expect(time.pending()).toBe(0);
  });

  test("never while a run is live: the quiet counts from when none is", () => {
    const runs = { started: 1, live: 1 };
    const { time, idle, releases } = setUp(runs);
    idle.activity();
    time.advance(60_000);
    expect(releases()).toBe(0);
    runs.live = 0;
    time.advance(999); // the check that found the run live was at most quietMs ago
    time.advance(1_001);
    expect(releases()).toBe(1);
  });

  test("start-up over releases at once; dispose stops every later release", () => {
    const { time, idle, releases } = setUp();
    idle.activity();
    idle.startupOver();
    expect(releases()).toBe(1);
    time.advance(5000);
    expect(releases()).toBe(1); // the quiet timer armed before was dropped with the release
    idle.activity();
    idle.dispose();
    time.advance(5000);
    idle.activity();
    idle.startupOver();
    time.advance(5000);
    expect(releases()).toBe(1);
    expect(time.pending()).toBe(0);
  });

  test("a run started before start-up was over keeps its code: the release waits for quiet after it", () => {
    const runs = { started: 1, live: 1 };
    const { time, idle, releases } = setUp(runs);
    idle.startupOver();
    expect(releases()).toBe(0);
    time.advance(5000);
    expect(releases()).toBe(0); // still live
    runs.live = 0;
    time.advance(2000);
    expect(releases()).toBe(1);
  });
});
