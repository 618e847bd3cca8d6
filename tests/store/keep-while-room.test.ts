// keepWhileRoom: the one rule for od's caches (a finished run's history, an answer's text) on a disk that may be full.
import { expect, mock, test } from "bun:test";
import { keepWhileRoom } from "../../server/store/disk-space.ts";

const space = (room: boolean) => ({ available: mock(() => room), exhausted: mock(() => {}) });

test("with room, the cache is written", () => {
  const s = space(true);
  const write = mock(() => {});
  expect(keepWhileRoom(s, write)).toBe(true);
  expect(write).toHaveBeenCalledTimes(1);
  expect(s.exhausted).not.toHaveBeenCalled();
});

test("without room, nothing is written", () => {
  const s = space(false);
  const write = mock(() => {});
  expect(keepWhileRoom(s, write)).toBe(false);
  expect(write).not.toHaveBeenCalled();
});

test("a write that finds the disk full says so; any other failure only leaves the cache unwritten", () => {
  const full = space(true);
  expect(keepWhileRoom(full, () => { throw Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" }); })).toBe(false);
  expect(full.exhausted).toHaveBeenCalledTimes(1);
  const busy = space(true);
  expect(keepWhileRoom(busy, () => { throw Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" }); })).toBe(false);
  expect(busy.exhausted).not.toHaveBeenCalled();
});
