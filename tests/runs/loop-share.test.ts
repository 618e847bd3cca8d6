// LoopShare (server/next-turn.ts): work from many sources goes on while the current turn's share lasts, and waits in
// line for a later turn of the loop once it has used more.
import { describe, expect, test } from "bun:test";
import { LoopShare } from "../../server/next-turn.ts";

function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe("LoopShare", () => {
  test("within its share, take() goes on in the same turn: a timer due meanwhile has not run", async () => {
    const share = new LoopShare(50);
    await share.take(); // the first share starts in a turn of its own
    let timerRan = false;
    setTimeout(() => (timerRan = true), 0);
    for (let i = 0; i < 10; i++) await share.take();
    expect(timerRan).toBe(false);
  });

  test("past its share, take() waits for a later turn: what was waiting for the loop runs first", async () => {
    const share = new LoopShare(5);
    await share.take();
    let ran = false;
    setImmediate(() => (ran = true));
    busy(10);
    await share.take();
    expect(ran).toBe(true);
  });

  test("many takers share one budget per turn: fifty sources each handling 2 ms chunks yield every few chunks", async () => {
    const share = new LoopShare(10);
    const stretches: number[] = [];
    let turnStarted = performance.now();
    const ticker = setInterval(() => {
      stretches.push(performance.now() - turnStarted);
      turnStarted = performance.now();
    }, 1);
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        for (let chunk = 0; chunk < 4; chunk++) {
          await share.take();
          busy(2);
        }
      }),
    );
    clearInterval(ticker);
    // 400 ms of work: without the share it runs in one stretch; with it, the loop turns every ~10 ms. Nine stretches
    // in ten are judged, not the longest: a loaded 2-core machine has held the process off its CPU for 104 and 229 ms
    // between two turns, which no share can prevent.
    const sorted = stretches.sort((a, b) => a - b);
    expect(sorted.length).toBeGreaterThan(15);
    expect(sorted[Math.floor(sorted.length * 0.9)]!).toBeLessThan(50);
  });
});
