import { expect, test } from "bun:test";
import { heapStats } from "bun:jsc";
import { collectStartupGarbage } from "../../server/platform/memory.ts";

test("collectStartupGarbage runs a full collection: garbage that survived young collections is freed", () => {
  // Garbage old enough to have been promoted: kept alive across a young collection, then dropped.
  let keep: unknown[] | undefined = Array.from({ length: 200_000 }, (_, i) => ({ i, text: `item ${i}` }));
  Bun.gc(false);
  const before = heapStats().objectCount;
  keep = undefined;
  collectStartupGarbage();
  expect(keep).toBeUndefined();
  expect(heapStats().objectCount).toBeLessThan(before - 150_000);
});
