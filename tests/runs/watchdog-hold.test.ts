// Issue #37: while an approval request waits for a person, the run's silence is the person's: the watchdog holds.
import { expect, test } from "bun:test";
import { Watchdog } from "../../server/runs/watchdog.ts";

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

test("a held watchdog never fires; released, its idle watch starts again from then", async () => {
  const fired: string[] = [];
  const watchdog = new Watchdog({ firstOutputMs: 40, inactivityMs: 40 }, (which) => fired.push(which));
  watchdog.hold();
  await wait(120);
  expect(fired).toEqual([]);
  watchdog.release();
  await wait(15);
  expect(fired).toEqual([]);
  await wait(100);
  expect(fired).toEqual(["inactivity"]);
  watchdog.dispose();
});

test("two holds need two releases", async () => {
  const fired: string[] = [];
  const watchdog = new Watchdog({ firstOutputMs: 0, inactivityMs: 30 }, (which) => fired.push(which));
  watchdog.hold();
  watchdog.hold();
  watchdog.release();
  watchdog.activity();
  await wait(90);
  expect(fired).toEqual([]);
  watchdog.dispose();
});
