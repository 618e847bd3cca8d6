/**
 * Preloaded into a source run of od (`bun --preload this server/main.ts …`): counts the full collections that also
 * hand the allocator's freed pages back (`Bun.gc(true)`, server/platform/memory.ts's `collectGarbage`) and, at exit,
 * writes the count to the file named by OD_TEST_FULL_COLLECTIONS.
 */
import { writeFileSync } from "node:fs";

const gc = Bun.gc;
let full = 0;
Bun.gc = (force?: boolean) => {
  if (force) full++;
  return gc(force);
};

process.on("exit", () => {
  const file = process.env.OD_TEST_FULL_COLLECTIONS;
  if (file) writeFileSync(file, String(full));
});
