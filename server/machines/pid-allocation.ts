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
};

/** Pids below this are never handed out again after the cycle wraps (the kernel's RESERVED_PIDS). */
export const RESERVED_PIDS = 300;

/**
 * The pids handed out from `first` on (it included) up to `last`, the namespace's last pid. When `last` is below
 * `first`, the allocator went round at `pidMax` in between (pid_max is read only then, or when the bound below needs
 * it).
 */
export type PidRange = { first: number; last: number; pidMax?: number };

/**
 * The pids handed out from `firstPid` on, or undefined when the counters cannot rule out a whole cycle since `mark`
 * (then any pid may be one of them). pid_max (`readPidMax`) is asked for only when the range wraps or when its floor
 * does not settle the bound: every pid handed out is below pid_max, so a bound that holds with the largest of them in
 * its place holds with pid_max too (were pid_max lowered below them since, the next pid handed out would wrap). On a
 * machine that has handed out a few thousand pids, a short run's sweep reads no sysctl: ns_last_pid and pid_max cost
 * ~0.13 ms in the compiled binary, on the path of every run's end.
 */
export function pidsAllocatedSince(firstPid: number, mark: PidAllocationMark, now: PidAllocationNow, readPidMax: () => number | undefined = readPidMaxNow): PidRange | undefined {
  const allocations = now.forks - mark.forks;
  const valid = allSafeIntegers(firstPid, mark.forks, mark.threads, now.forks, now.lastPid);
  if (!valid || allocations < 0 || firstPid <= 0 || now.lastPid <= 0) return undefined;
  const steps = 2 * allocations + mark.threads;
  const wraps = now.lastPid < firstPid;
  if (!wraps && steps < now.lastPid + 1 - RESERVED_PIDS) return { first: firstPid, last: now.lastPid };
  const pidMax = readPidMax();
  if (pidMax === undefined || !Number.isSafeInteger(pidMax) || firstPid >= pidMax || steps >= pidMax - RESERVED_PIDS) return undefined;
  return wraps ? { first: firstPid, last: now.lastPid, pidMax } : { first: firstPid, last: now.lastPid };
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
  const pids: number[] = [];
  if (last >= first) {
    if (last - first + 1 > limit) return undefined;
    for (let pid = first; pid <= last; pid++) pids.push(pid);
    return pids;
  }
  // A range that wraps carries its pid_max (pidsAllocatedSince); one without it is not listed here.
  if (pidMax === undefined || pidMax - first + Math.max(0, last - RESERVED_PIDS + 1) > limit) return undefined;
  for (let pid = first; pid < pidMax; pid++) pids.push(pid);
  for (let pid = RESERVED_PIDS; pid <= last; pid++) pids.push(pid);
  return pids;
}

/** The counters before a spawn; undefined off Linux or when /proc does not have them. */
export function readPidAllocationMark(): PidAllocationMark | undefined {
  if (process.platform !== "linux") return undefined;
  const forks = parseForks(readOr("/proc/stat"));
  const threads = parseLoadavg(readOr("/proc/loadavg"))?.threads;
  return forks !== undefined && threads !== undefined ? { forks, threads } : undefined;
}

/**
 * The counters now; undefined off Linux or when /proc does not have them. The last pid is the last field of
 * /proc/loadavg: the kernel prints there what /proc/sys/kernel/ns_last_pid gives (the cursor of the reader's pid
 * namespace), and a sysctl read cost ~0.1 ms in the compiled binary against a few µs for loadavg.
 */
export function readPidAllocationNow(): PidAllocationNow | undefined {
  if (process.platform !== "linux") return undefined;
  const forks = parseForks(readOr("/proc/stat"));
  const lastPid = parseLoadavg(readOr("/proc/loadavg"))?.lastPid;
  return forks !== undefined && lastPid !== undefined ? { forks, lastPid } : undefined;
}

/** pid_max (Linux), or undefined when it cannot be read. */
function readPidMaxNow(): number | undefined {
  const pidMax = Number(readOr("/proc/sys/kernel/pid_max").trim() || NaN);
  return Number.isSafeInteger(pidMax) ? pidMax : undefined;
}

/*
 * The two files are read by splitting and searching, not by patterns: every pattern is compiled at its first use, and
 * these run once in a short `od run`, before its agent starts and after it ends (~0.01–0.02 ms a pattern there).
 */

/** The `processes` line of /proc/stat: processes and threads created since boot. Pure. */
export function parseForks(procStat: string): number | undefined {
  const at = procStat.indexOf("\nprocesses ");
  if (at === -1) return undefined;
  const start = at + "\nprocesses ".length;
  const end = procStat.indexOf("\n", start);
  return safeInteger(procStat.slice(start, end === -1 ? undefined : end));
}

/** /proc/loadavg's threads alive (`running/total`, the total) and the namespace's last pid (its last field). Pure. */
export function parseLoadavg(loadavg: string): { threads: number; lastPid: number } | undefined {
  const fields = loadavg.trim().split(" ");
  if (fields.length !== 5) return undefined;
  const slash = fields[3]!.indexOf("/");
  const threads = slash === -1 ? undefined : safeInteger(fields[3]!.slice(slash + 1));
  const lastPid = safeInteger(fields[4]!);
  return threads !== undefined && lastPid !== undefined ? { threads, lastPid } : undefined;
}

function safeInteger(text: string): number | undefined {
  const value = text === "" ? NaN : Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}

function readOr(path: string): string {
  try {
    return readFileSync(path, "latin1");
  } catch {
    return "";
  }
}
