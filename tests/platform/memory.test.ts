import { expect, test } from "bun:test";
import { heapStats } from "bun:jsc";
import { collectStartupGarbage } from "../../server/platform/memory.ts";

const holder: { items?: unknown[] } = {};

/** ~30 MB of objects held across young collections (so they are promoted), built off this test's stack frame. */
function promote(): void {
  holder.items = Array.from({ length: 300_000 }, (_, i) => ({ i, text: `item number ${i}`, list: [i, i + 1, i + 2] }));
  Bun.gc(false);
  Bun.gc(false);
}

test("collectStartupGarbage runs a full collection: promoted garbage is freed", () => {
  promote();
  holder.items = undefined;
  const before = heapStats().heapSize;
  collectStartupGarbage();
  expect(heapStats().heapSize).toBeLessThan(before - 10 * 1024 * 1024);
});
