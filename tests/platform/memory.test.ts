import { describe, expect, spyOn, test } from "bun:test";
import { collectGarbage, releaseStartupMemory } from "../../server/platform/memory.ts";

/**
 * A weak reference to ~40 MB of objects held across two young collections (so they are promoted to the old
 * generation, which only a full collection frees), built off the test's stack frame so no stale pointer keeps it.
 */
function promotedGarbage(): WeakRef<object> {
  const holder: { items?: object } = { items: Array.from({ length: 500_000 }, (_, i) => ({ i, text: `item number ${i}`, list: [i, i + 1, i + 2] })) };
  Bun.gc(false);
  Bun.gc(false);
  const ref = new WeakRef(holder.items!);
  holder.items = undefined;
  return ref;
}

// The WeakRef, not heap figures: heap statistics moved with collections the engine ran on its own (a busy machine
// failed two earlier forms of this test), while a promoted object's weak reference clears only when it is collected.
test("collectGarbage runs a full collection: promoted garbage is freed", async () => {
  const ref = promotedGarbage();
  await Bun.sleep(0); // a WeakRef keeps its target alive until the job that made it ends
  collectGarbage();
  await Bun.sleep(0);
  expect(ref.deref()).toBeUndefined();
});

// What the daemon's start-up left behind is handed back once it is over: its garbage always, its compiled code only
// while no run has started (a run's code is what the next run uses).
/** Bun's collection and shrink, counted instead of run, for the block's life. */
function countedCollections() {
  const gc = spyOn(Bun, "gc").mockImplementation(() => {});
  const shrink = spyOn(Bun, "shrink").mockImplementation(() => {});
  return { gc, shrink, [Symbol.dispose]: () => (gc.mockRestore(), shrink.mockRestore()) };
}

describe("releaseStartupMemory", () => {
  test("collects, and drops compiled code when no run has started", () => {
    using counted = countedCollections();
    releaseStartupMemory(0);
    expect(counted.gc).toHaveBeenCalledTimes(1);
    expect(counted.shrink).toHaveBeenCalledTimes(1);
  });

  test("keeps the code once a run has started: only the garbage goes", () => {
    using counted = countedCollections();
    releaseStartupMemory(2);
    expect(counted.gc).toHaveBeenCalledTimes(1);
    expect(counted.shrink).not.toHaveBeenCalled();
  });

  test("Bun still has shrink (its types mark it deprecated): a Bun without it would drop nothing", () => {
    expect(typeof (Bun as { shrink?: unknown }).shrink).toBe("function");
  });
});
