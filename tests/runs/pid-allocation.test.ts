import { describe, expect, test } from "bun:test";
import { pidsAllocatedSince, readPidAllocationMark, readPidAllocationNow, RESERVED_PIDS } from "../../server/machines/pid-allocation.ts";

const mark = { forks: 1000, threads: 100 };

describe("pidsAllocatedSince", () => {
  test("without a wrap: the pids from the first one up to the last one handed out", () => {
    const since = pidsAllocatedSince(5000, mark, { forks: 1010, lastPid: 5012, pidMax: 32768 })!;
    expect([4999, 5000, 5006, 5012, 5013, 300, 32767].map(since)).toEqual([false, true, true, true, false, false, false]);
  });

  test("after a wrap: from the first pid to pid_max, and from the bottom up to the last one", () => {
    const since = pidsAllocatedSince(32700, mark, { forks: 1200, lastPid: 450, pidMax: 32768 })!;
    expect([32699, 32700, 32767, RESERVED_PIDS, 450, 451, 20000].map(since)).toEqual([false, true, true, true, true, false, false]);
  });

  test("nothing is excluded once the counters allow a whole cycle (a long run, a small pid_max)", () => {
    // 2 × 16,200 allocations + 100 threads reach 32768 - 300: the pids may have gone all the way round.
    expect(pidsAllocatedSince(5000, mark, { forks: 1000 + 16_200, lastPid: 5012, pidMax: 32768 })).toBeUndefined();
    expect(pidsAllocatedSince(5000, mark, { forks: 1000 + 16_200, lastPid: 5012, pidMax: 4_194_304 })).toBeDefined();
    expect(pidsAllocatedSince(5000, { forks: 1000, threads: 32_500 }, { forks: 1001, lastPid: 5001, pidMax: 32768 })).toBeUndefined();
  });

  test("counters that make no sense exclude nothing", () => {
    expect(pidsAllocatedSince(5000, mark, { forks: 999, lastPid: 5012, pidMax: 32768 })).toBeUndefined();
    expect(pidsAllocatedSince(0, mark, { forks: 1001, lastPid: 5012, pidMax: 32768 })).toBeUndefined();
    expect(pidsAllocatedSince(40000, mark, { forks: 1001, lastPid: 5012, pidMax: 32768 })).toBeUndefined();
    expect(pidsAllocatedSince(5000, mark, { forks: Number.NaN, lastPid: 5012, pidMax: 32768 })).toBeUndefined();
  });
});

describe.if(process.platform === "linux")("the counters on Linux", () => {
  test("are read, and a process started after the mark falls in the range", async () => {
    const before = readPidAllocationMark()!;
    expect(before.forks).toBeGreaterThan(0);
    expect(before.threads).toBeGreaterThan(0);
    const child = Bun.spawn(["true"]);
    await child.exited;
    const now = readPidAllocationNow()!;
    expect(now.forks).toBeGreaterThan(before.forks);
    expect(pidsAllocatedSince(child.pid, before, now)?.(child.pid)).toBe(true);
  });
});
