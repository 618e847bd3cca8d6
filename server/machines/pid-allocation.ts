/**
 * Which pids can belong to processes started since a moment, read from the kernel's pid allocator (Linux). The
 * end-of-run sweep looks for processes carrying the run's cookie; every one of them descends from the agent, so it
 * was given a pid after the agent's. Reading only those processes' /proc entries instead of every process's makes
 * the sweep's cost follow what the run started, not the machine: with 500 more (idle) processes on the machine,
 * `od run` on a short answer took 81 ms before and 61 ms after (medians, interleaved).
 *
 * The allocator hands out pids in a cycle (up to pid_max - 1, then from RESERVED_PIDS again), skipping pids in use.
 * Short of a whole cycle since the agent's pid, the pids handed out after it are the ones from it up to the
 * namespace's last pid, cyclically. The cursor moves one step per allocation and one per pid in use that it skips;
 * the pids it can skip were in use at the mark (at most `threads` then) or allocated since. So a whole cycle needs
 * at least `pid_max - RESERVED_PIDS` of `2 × allocations + threads`, and whenever that bound is reached (a long run
 * on a busy machine with a small pid_max), nothing is excluded.
 */
import { readFileSync } from "node:fs";

/** The kernel's allocation counters, read before the agent is started. */
export type PidAllocationMark = {
  /** Processes and threads created since boot (`processes` in /proc/stat). */
  forks: number;
  /** Threads alive (the total in /proc/loadavg): pids in use. */
  threads: number;
};

/** The counters at the sweep. */
export type PidAllocationNow = {
  forks: number;
  /** The last pid handed out in this pid namespace. */
  lastPid: number;
  pidMax: number;
};

/** Pids below this are never handed out again after the cycle wraps (the kernel's RESERVED_PIDS). */
export const RESERVED_PIDS = 300;

/**
 * The pids handed out from `first` on (it included) up to `last`, the namespace's last pid: through the allocator's
 * wrap at pid_max when `last` is below `first`.
 */
export type PidRange = { first: number; last: number; pidMax: number };

/**
 * The pids handed out from `firstPid` on, or undefined when the counters cannot rule out a whole cycle since `mark`
 * (then any pid may be one of them). Pure.
 */
export function pidsAllocatedSince(firstPid: number, mark: PidAllocationMark, now: PidAllocationNow): PidRange | undefined {
  const allocations = now.forks - mark.forks;
  const valid = allSafeIntegers(firstPid, mark.forks, mark.threads, now.forks, now.lastPid, now.pidMax);
  if (!valid || allocations < 0 || firstPid <= 0 || now.lastPid <= 0 || firstPid >= now.pidMax) return undefined;
  if (2 * allocations + mark.threads >= now.pidMax - RESERVED_PIDS) return undefined;
  return { first: firstPid, last: now.lastPid, pidMax: now.pidMax };
}

/** A loop, not `every`: the sweep of every `od run` asks this, and the engine compiles a builtin like `every` on its first call. */
function allSafeIntegers(...values: number[]): boolean {
  for (const value of values) if (!Number.isSafeInteger(value)) return false;
  return true;
}

/** Whether `pid` is one of the range's (after a wrap the allocator starts again at RESERVED_PIDS). */
export function inPidRange({ first, last }: PidRange, pid: number): boolean {
  return last >= first ? pid >= first && pid <= last : pid >= first || (pid >= RESERVED_PIDS && pid <= last);
}

/** The range's pids in allocation order, when it holds at most `limit` of them; undefined for a larger one. */
export function pidsOfRange({ first, last, pidMax }: PidRange, limit: number): number[] | undefined {
  const size = last >= first ? last - first + 1 : pidMax - first + Math.max(0, last - RESERVED_PIDS + 1);
  if (size > limit) return undefined;
  const pids: number[] = [];
  if (last >= first) for (let pid = first; pid <= last; pid++) pids.push(pid);
  else {
    for (let pid = first; pid < pidMax; pid++) pids.push(pid);
    for (let pid = RESERVED_PIDS; pid <= last; pid++) pids.push(pid);
  }
  return pids;
}

/** The counters before a spawn; undefined off Linux or when /proc does not have them. */
export function readPidAllocationMark(): PidAllocationMark | undefined {
  if (process.platform !== "linux") return undefined;
  const forks = readForks();
  const threads = Number(/^\S+ \S+ \S+ \d+\/(\d+)/.exec(readOr("/proc/loadavg"))?.[1]);
  return forks !== undefined && Number.isSafeInteger(threads) ? { forks, threads } : undefined;
}

/** The counters now; undefined off Linux or when /proc does not have them (ns_last_pid: Linux 3.3 and later). */
export function readPidAllocationNow(): PidAllocationNow | undefined {
  if (process.platform !== "linux") return undefined;
  const forks = readForks();
  const lastPid = Number(readOr("/proc/sys/kernel/ns_last_pid").trim() || NaN);
  const pidMax = Number(readOr("/proc/sys/kernel/pid_max").trim() || NaN);
  return forks !== undefined && Number.isSafeInteger(lastPid) && Number.isSafeInteger(pidMax) ? { forks, lastPid, pidMax } : undefined;
}

function readForks(): number | undefined {
  const forks = Number(/^processes (\d+)$/m.exec(readOr("/proc/stat"))?.[1]);
  return Number.isSafeInteger(forks) ? forks : undefined;
}

function readOr(path: string): string {
  try {
    return readFileSync(path, "latin1");
  } catch {
    return "";
  }
}
