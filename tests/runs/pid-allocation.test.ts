import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { inPidRange, parseForks, parseLoadavg, pidsAllocatedSince, pidsOfRange, readPidAllocationMark, readPidAllocationNow, RESERVED_PIDS } from "../../server/machines/pid-allocation.ts";
import { readProcesses, readProcessSnapshot } from "../../server/machines/process-table.ts";

const mark = { forks: 1000, threads: 100 };

describe("pidsAllocatedSince", () => {
  test("without a wrap: the pids from the first one up to the last one handed out", () => {
    const range = pidsAllocatedSince(5000, mark, { forks: 1010, lastPid: 5012 }, () => 32768)!;
    expect([4999, 5000, 5006, 5012, 5013, 300, 32767].map((pid) => inPidRange(range, pid))).toEqual([false, true, true, true, false, false, false]);
  });

  test("after a wrap: from the first pid to pid_max, and from the bottom up to the last one", () => {
    const range = pidsAllocatedSince(32700, mark, { forks: 1200, lastPid: 450 }, () => 32768)!;
    expect([32699, 32700, 32767, RESERVED_PIDS, 450, 451, 20000].map((pid) => inPidRange(range, pid))).toEqual([false, true, true, true, true, false, false]);
    // The allocator starts again at RESERVED_PIDS: the pids below it (init's, the boot's) are not the range's.
    expect([1, RESERVED_PIDS - 1].map((pid) => inPidRange(range, pid))).toEqual([false, false]);
  });

  test("a small range's pids are listed in allocation order, through the wrap; a larger one is not", () => {
    expect(pidsOfRange({ first: 5000, last: 5004, pidMax: 32768 }, 128)).toEqual([5000, 5001, 5002, 5003, 5004]);
    expect(pidsOfRange({ first: 32766, last: RESERVED_PIDS + 1, pidMax: 32768 }, 128)).toEqual([32766, 32767, RESERVED_PIDS, RESERVED_PIDS + 1]);
    expect(pidsOfRange({ first: 5000, last: 5127, pidMax: 32768 }, 128)).toHaveLength(128);
    expect(pidsOfRange({ first: 5000, last: 5128, pidMax: 32768 }, 128)).toBeUndefined();
    expect(pidsOfRange({ first: 32700, last: 450, pidMax: 32768 }, 128)).toBeUndefined();
    // A wrapped range without its pid_max is not listed pid by pid.
    expect(pidsOfRange({ first: 32766, last: RESERVED_PIDS + 1 }, 128)).toBeUndefined();
  });

  test("pid_max is read only for a range that wraps or when the largest pid handed out cannot settle the bound", () => {
    let reads = 0;
    const pidMax = () => (reads++, 32768);
    // 2 × 10 allocations + 100 threads is far below the 5012 - 300 steps any whole cycle would take: no read.
    expect(pidsAllocatedSince(5000, mark, { forks: 1010, lastPid: 5012 }, pidMax)).toEqual({ first: 5000, last: 5012 });
    expect(reads).toBe(0);
    // A new namespace (a container) has handed out few pids: their floor says nothing, pid_max does.
    expect(pidsAllocatedSince(310, { forks: 10, threads: 20 }, { forks: 12, lastPid: 320 }, pidMax)).toEqual({ first: 310, last: 320 });
    expect(reads).toBe(1);
    // A wrap needs pid_max to list its pids, and carries it.
    expect(pidsAllocatedSince(32700, mark, { forks: 1200, lastPid: 450 }, pidMax)).toEqual({ first: 32700, last: 450, pidMax: 32768 });
    expect(reads).toBe(2);
    // pid_max unreadable where it is needed: nothing is excluded.
    expect(pidsAllocatedSince(32700, mark, { forks: 1200, lastPid: 450 }, () => undefined)).toBeUndefined();
  });

  test("nothing is excluded once the counters allow a whole cycle (a long run, a small pid_max)", () => {
    // 2 × 16,200 allocations + 100 threads reach 32768 - 300: the pids may have gone all the way round.
    expect(pidsAllocatedSince(5000, mark, { forks: 1000 + 16_200, lastPid: 5012 }, () => 32768)).toBeUndefined();
    expect(pidsAllocatedSince(5000, mark, { forks: 1000 + 16_200, lastPid: 5012 }, () => 4_194_304)).toBeDefined();
    expect(pidsAllocatedSince(5000, { forks: 1000, threads: 32_500 }, { forks: 1001, lastPid: 5001 }, () => 32768)).toBeUndefined();
  });

  test("counters that make no sense exclude nothing", () => {
    expect(pidsAllocatedSince(5000, mark, { forks: 999, lastPid: 5012 }, () => 32768)).toBeUndefined();
    expect(pidsAllocatedSince(0, mark, { forks: 1001, lastPid: 5012 }, () => 32768)).toBeUndefined();
    expect(pidsAllocatedSince(40000, mark, { forks: 1001, lastPid: 5012 }, () => 32768)).toBeUndefined();
    expect(pidsAllocatedSince(5000, mark, { forks: Number.NaN, lastPid: 5012 }, () => 32768)).toBeUndefined();
  });
});

describe("the counters' files", () => {
  test("/proc/stat gives the processes created since boot", () => {
    const stat = "cpu  12830 0 6523 150257 546 0 73 4 0 0\ncpu0 5848 0 2828 76290 120 0 13 2 0 0\nintr 590725 0 0\nctxt 823241\nbtime 1796679198\nprocesses 22470\nprocs_running 1\n";
    expect(parseForks(stat)).toBe(22470);
    expect(parseForks(stat.replace("\nprocs_running 1\n", ""))).toBe(22470);
    expect(parseForks("cpu 1 2 3\nctxt 5\n")).toBeUndefined();
    expect(parseForks("cpu 1\nprocesses many\n")).toBeUndefined();
    expect(parseForks("")).toBeUndefined();
  });

  test("/proc/loadavg gives the threads alive and the last pid handed out", () => {
    expect(parseLoadavg("0.23 0.06 0.02 1/234 12345\n")).toEqual({ threads: 234, lastPid: 12345 });
    expect(parseLoadavg("0.23 0.06 0.02 1/234\n")).toBeUndefined();
    expect(parseLoadavg("0.23 0.06 0.02 234 12345\n")).toBeUndefined();
    expect(parseLoadavg("0.23 0.06 0.02 1/ 12345\n")).toBeUndefined();
    expect(parseLoadavg("")).toBeUndefined();
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
    expect(inPidRange(pidsAllocatedSince(child.pid, before, now)!, child.pid)).toBe(true);
  });

  test("the last pid is the one ns_last_pid gives", async () => {
    const sysctl = () => Number(readFileSync("/proc/sys/kernel/ns_last_pid", "latin1").trim());
    // Other processes may start in between: the reading lies between the two around it (short of a wrap).
    for (let round = 0; round < 20; round++) {
      const before = sysctl();
      const { lastPid } = readPidAllocationNow()!;
      const after = sysctl();
      if (after < before) continue;
      expect(lastPid).toBeGreaterThanOrEqual(before);
      expect(lastPid).toBeLessThanOrEqual(after);
    }
    const child = Bun.spawn(["true"]);
    await child.exited;
    expect(readPidAllocationNow()!.lastPid).toBeGreaterThanOrEqual(child.pid);
  });

  test("read pid by pid, a range holds the processes started in it, not their threads", async () => {
    const before = readPidAllocationMark()!;
    // A Bun process runs several threads, each with an id from the same allocator as the pids.
    const child = Bun.spawn([process.execPath, "-e", "setTimeout(() => {}, 20_000)"], { stdout: "ignore", stderr: "ignore" });
    try {
      let threads: number[] = [];
      for (let tries = 0; tries < 250 && threads.length === 0; tries++) {
        await Bun.sleep(20);
        threads = readdirSync(`/proc/${child.pid}/task`).map(Number).filter((tid) => tid !== child.pid);
      }
      expect(threads.length).toBeGreaterThan(0);
      expect(readProcesses([child.pid, ...threads]).map((entry) => entry.pid)).toEqual([child.pid]);
      // Read whichever way the range's size decides (pid by pid here, unless the machine handed out over 128 pids since).
      const range = pidsAllocatedSince(child.pid, before, readPidAllocationNow()!)!;
      const pids = (await readProcessSnapshot(range)).map((entry) => entry.pid);
      expect(pids).toContain(child.pid);
      expect(pids.filter((pid) => threads.includes(pid))).toEqual([]);
      expect(pids.every((pid) => inPidRange(range, pid))).toBe(true);
    } finally {
      child.kill("SIGKILL");
      await child.exited;
    }
  });
});
