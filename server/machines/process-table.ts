/**
 * The process table as od reads it: who is whose child, in which group, since when, and whose environment carries a
 * run's cookie. Linux reads /proc; macOS parses `ps`; Windows has neither here, so these read nothing there. Pure
 * parsers for each format, and the readers built on them; the sweep that acts on them is process-tree.ts.
 */
import type { Buffer } from "node:buffer";
import { nodeBuffer } from "../platform/node-buffer.ts";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { spawnChild } from "../platform/process.ts";
import { inPidRange, pidsOfRange, type PidRange } from "./pid-allocation.ts";

/** One process in a snapshot of the process table. */
export type ProcessEntry = {
  pid: number;
  ppid: number;
  /** Process group id (Linux snapshots). */
  pgid?: number;
  /** Kernel start time (Linux clock ticks since boot); tells a live process from a reused pid. */
  startTime?: number;
  /** Zombie (exited, not reaped): dead for our purposes. */
  zombie?: boolean;
  /** A kernel thread (Linux): it has no environment to read. */
  kernelThread?: boolean;
};

/** Linux's PF_KTHREAD, in the flags field of `/proc/<pid>/stat`. */
const PF_KTHREAD = 0x0020_0000;

/** The run's environment tag, e.g. `{ name: "OD_RUN_COOKIE", value: "<run id>-<random>" }`. */
export type EnvCookie = { name: string; value: string };

// ---------------------------------------------------------------- pure parsers

/** Parse one `/proc/<pid>/stat` line (the comm field may hold spaces and parentheses). */
export function parseProcStat(line: string): ProcessEntry | null {
  const open = line.indexOf("(");
  const close = line.lastIndexOf(")");
  if (open <= 0 || close < open) return null;
  const pid = Number(line.slice(0, open).trim());
  // The kernel separates the fields with one space: a split on it, not a pattern compiled for the one read of a run.
  const fields = line.slice(close + 1).trim().split(" ");
  const ppid = Number(fields[1]);
  const pgid = Number(fields[2]);
  const flags = Number(fields[6]);
  const startTime = Number(fields[19]);
  if (!Number.isInteger(pid) || !Number.isInteger(ppid)) return null;
  return {
    pid,
    ppid,
    ...(Number.isInteger(pgid) ? { pgid } : {}),
    ...(Number.isFinite(startTime) ? { startTime } : {}),
    ...(fields[0] === "Z" || fields[0] === "X" ? { zombie: true } : {}),
    ...(Number.isInteger(flags) && flags & PF_KTHREAD ? { kernelThread: true } : {}),
  };
}

/** Parse `ps -A -o pid=,ppid=` output. Bad lines are skipped. */
export function parsePsPidPpid(output: string): ProcessEntry[] {
  const entries: ProcessEntry[] = [];
  for (const line of output.split("\n")) {
    const match = /^\s*(\d+)\s+(\d+)\s*$/.exec(line);
    if (match) entries.push({ pid: Number(match[1]), ppid: Number(match[2]) });
  }
  return entries;
}

/**
 * Pids in `ps eww -A -o pid=,command=` output whose environment (appended to the command line as `NAME=value`
 * words) holds exactly `name=value`.
 */
export function parsePsEnvOutput(output: string, cookie: EnvCookie): number[] {
  const needle = new RegExp(`(?:^|\\s)${escapeRegExp(cookie.name)}=${escapeRegExp(cookie.value)}(?:\\s|$)`);
  const pids: number[] = [];
  for (const line of output.split("\n")) {
    const match = /^\s*(\d+)\s+(.*)$/.exec(line);
    if (match && needle.test(match[2]!)) pids.push(Number(match[1]));
  }
  return pids;
}

/** True when a NUL-separated environ block holds exactly `name=value`. */
export function environHasCookie(environ: Uint8Array | string, cookie: EnvCookie): boolean {
  const { Buffer } = nodeBuffer();
  const text = typeof environ === "string" ? environ : Buffer.from(environ).toString("latin1");
  const entry = Buffer.from(`${cookie.name}=${cookie.value}`, "utf8").toString("latin1");
  return `\0${text}\0`.includes(`\0${entry}\0`);
}

/** Every descendant of `rootPid` in a snapshot (children, grandchildren, …), cycle-safe. */
export function descendantsFromSnapshot(snapshot: readonly ProcessEntry[], rootPid: number): number[] {
  const children = new Map<number, number[]>();
  for (const { pid, ppid } of snapshot) {
    if (pid === ppid) continue;
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const seen = new Set<number>([rootPid]);
  const queue = [rootPid];
  const out: number[] = [];
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    for (const child of children.get(pid) ?? []) {
      if (seen.has(child)) continue;
      seen.add(child);
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

// ---------------------------------------------------------------- readers

/**
 * A range of at most this many pids is read pid by pid; a larger one by listing /proc. A listing costs per process on
 * the machine, a pid read directly per pid of the range: in the compiled binary, listing /proc and reading what falls
 * in a range took ~0.3 ms with 120 processes and ~0.9–1.5 ms with 600, reading 64 pids one by one ~0.14 ms (a pid that
 * is gone ~2 µs, one that is there ~10 µs). A short run's range holds a few pids; a long one's on a busy desktop,
 * thousands.
 */
const PIDS_READ_ONE_BY_ONE = 128;

/**
 * The current process table (pid, ppid). Linux: /proc (only the pids in `only`, when given); macOS: ps;
 * Windows: []. Never throws.
 */
export async function readProcessSnapshot(only?: PidRange): Promise<ProcessEntry[]> {
  if (process.platform === "linux") {
    const pids = only && pidsOfRange(only, PIDS_READ_ONE_BY_ONE);
    if (pids) return readProcesses(pids);
    return mapProcPids(readStat, only && ((pid) => inPidRange(only, pid))).filter((entry): entry is ProcessEntry => entry !== null);
  }
  if (process.platform === "darwin") return parsePsPidPpid(await runPs(["-A", "-o", "pid=,ppid="]));
  return [];
}

/** Every live descendant of `pid` (Windows: []). */
export async function descendantsOf(pid: number): Promise<number[]> {
  const snapshot = (await readProcessSnapshot()).filter((entry) => !entry.zombie);
  return descendantsFromSnapshot(snapshot, pid);
}

/**
 * Pids of processes whose environment holds `name=value`, excluding this process. Linux scans
 * `/proc/<pid>/environ` (processes we may not read, or that vanish mid-scan, are skipped); macOS parses
 * `ps eww`; Windows returns [] (no portable way to read another process's environment).
 */
export async function findProcessesWithEnvCookie(name: string, value: string, among?: readonly number[]): Promise<number[]> {
  const cookie = { name, value };
  let pids: number[] = [];
  if (process.platform === "linux") {
    const unread: number[] = [];
    const hits = mapProcPids((pid) => {
      const environ = environOf(pid);
      if (environ.length === 0) unread.push(pid);
      return environHasCookie(environ, cookie) ? pid : null;
    }, among);
    pids = hits.filter((pid): pid is number => pid !== null);
    pids.push(...(await carriersOnceExecuted(unread, cookie)));
  } else if (process.platform === "darwin") {
    pids = parsePsEnvOutput(await runPs(["eww", "-A", "-o", "pid=,command="]), cookie);
  }
  return pids.filter((pid) => pid !== process.pid);
}

/** A process's environment block (throws when it is gone or not ours to read). */
const environOf = (pid: number): Buffer => readFileSync(`/proc/${pid}/environ`);

/** How many times, and how far apart (ms), an environment read as empty is read again. */
const MID_EXEC_READS = 5;
const MID_EXEC_WAIT_MS = 1;

/**
 * Which of `pids`, whose environment read as empty, carry the cookie once they are through an exec. Exec gives a
 * process its new name and memory before it maps the new environment, and until then `/proc/<pid>/environ` reads as
 * empty: an agent's process caught there by a sweep would be passed over. A kernel thread or a zombie has no
 * environment to wait for; a process with an empty one (`env -i`) costs the few reads.
 */
async function carriersOnceExecuted(pids: readonly number[], cookie: EnvCookie): Promise<number[]> {
  let waiting = pids.filter((pid) => {
    const stat = readStat(pid);
    return stat !== null && !stat.zombie && !stat.kernelThread;
  });
  const carriers: number[] = [];
  for (let read = 0; read < MID_EXEC_READS && waiting.length > 0; read++) {
    await new Promise((resolve) => setTimeout(resolve, MID_EXEC_WAIT_MS));
    const environs = mapProcPids(environOf, waiting);
    const stillEmpty: number[] = [];
    // A pid gone since reads null and is passed over.
    waiting.forEach((pid, i) => {
      const environ = environs[i];
      if (environ?.length === 0) stillEmpty.push(pid);
      else if (environ && environHasCookie(environ, cookie)) carriers.push(pid);
    });
    waiting = stillEmpty;
  }
  return carriers;
}

/**
 * `read` for every pid in /proc, skipping the ones it throws for (EACCES, ESRCH, ENOENT). Synchronous on purpose: each
 * read is a few microseconds of kernel work, and a promise per file made a scan of ~100 processes cost 2-7 ms (plus
 * loading node:fs/promises), three scans of it on the path of every run's end.
 */
function mapProcPids<T>(read: (pid: number) => T | null, among?: readonly number[] | ((pid: number) => boolean)): (T | null)[] {
  let pids: readonly number[];
  if (Array.isArray(among)) pids = among;
  else {
    try {
      pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name)).map(Number);
    } catch {
      return [];
    }
    if (typeof among === "function") pids = pids.filter(among);
  }
  const results: (T | null)[] = [];
  for (const pid of pids) {
    try {
      results.push(read(pid));
    } catch {
      results.push(null);
    }
  }
  return results;
}

export async function runPs(args: string[]): Promise<string> {
  try {
    const child = await spawnChild({ argv: ["ps", ...args], stdin: "ignore", env: { ...process.env, LC_ALL: "C" } });
    const chunks: Uint8Array[] = [];
    const drainStderr = (async () => {
      for await (const _chunk of child.stderr) void _chunk;
    })();
    for await (const chunk of child.stdout) chunks.push(chunk);
    await drainStderr;
    await child.exited;
    return nodeBuffer().Buffer.concat(chunks).toString("utf8");
  } catch {
    return "";
  }
}

/** One process's `/proc/<pid>/stat`, or null when it is gone or unreadable (Linux). */
export function readStat(pid: number): ProcessEntry | null {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, "latin1"));
  } catch {
    return null;
  }
}

/**
 * The processes among `pids`, read pid by pid (Linux): a pid gone is passed over, and so is a thread's. The kernel
 * answers /proc/<tid> for any thread though it lists only processes, and a thread is not one: its process is its
 * thread group's leader.
 */
export function readProcesses(pids: readonly number[]): ProcessEntry[] {
  const entries: ProcessEntry[] = [];
  for (const pid of pids) {
    if (!existsSync(`/proc/${pid}`)) continue;
    const entry = readStat(pid);
    if (entry && threadGroupOf(pid) === pid) entries.push(entry);
  }
  return entries;
}

/** The thread group (`Tgid` in /proc/<pid>/status) the task with this id belongs to; undefined once it is gone. */
function threadGroupOf(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "latin1");
    const at = status.indexOf("\nTgid:");
    // parseInt skips the tab after the name and stops at the line's end.
    return at === -1 ? undefined : Number.parseInt(status.slice(at + "\nTgid:".length), 10);
  } catch {
    return undefined;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
