import { expect, test } from "bun:test";
import { heapStats } from "bun:jsc";
import { collectStartupGarbage } from "../../server/platform/memory.ts";

const holder: { items?: unknown[] } = {};

/** ~40-50 MB of objects held across young collections (so they are promoted), built off this test's stack frame. */
function promote(): void {
  holder.items = Array.from({ length: 500_000 }, (_, i) => ({ i, text: `item number ${i}`, list: [i, i + 1, i + 2] }));
  Bun.gc(false);
  Bun.gc(false);
}

test("collectStartupGarbage runs a full collection: promoted garbage is freed", () => {
  // Against the heap after a full collection, not the heap just before the call: the engine may start a collection
  // of its own at any moment (a busy machine made the "before" figure already small), which must not fail the test.
  Bun.gc(true);
  const floor = heapStats().heapSize;
  promote();
  const grown = heapStats().heapSize;
  holder.items = undefined;
  collectStartupGarbage();
  expect(grown).toBeGreaterThan(floor + 20 * 1024 * 1024); // the garbage was there (promoted, held past young GCs)
  expect(heapStats().heapSize).toBeLessThan(floor + 10 * 1024 * 1024);
});
