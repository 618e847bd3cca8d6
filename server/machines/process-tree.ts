/**
 * Finding and ending every process of a run, including the ones a process-group kill misses: tool shells that
 * started their own session (opencode's bash tool, Claude Code's `setsid`) and workers of node wrappers that
 * outlive SIGTERM (real-clis §15.2). Each run's environment carries a unique cookie variable; whatever still
 * carries it after the run is an orphan of that run.
 *
 * Linux reads /proc; macOS parses `ps`; Windows has neither an environment scan nor process groups here, so the
 * scans and the sweep do nothing there (a Job Object per run would be the Windows answer).
 * Never signals pid ≤ 1, this process, or this process's group.
 */
import { Buffer } from "node:buffer";
import { readdirSync, readFileSync } from "node:fs";
import { spawnChild } from "../platform/process.ts";
import { pidsAllocatedSince, readPidAllocationNow, type PidAllocationMark } from "./pid-allocation.ts";

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

export type KillRunProcessTreeOptions = {
  /** The run's root child (usually already exited). */
  rootPid: number;
  /** The group the root led (spawned with its own group); signalled as a whole too while it has members. */
  processGroup?: number;
  /** The run's cookie: every process carrying it is swept too. Absent: only the root's tree and group. */
  cookie?: EnvCookie;
  /**
   * When the od process that handed out the cookie started (its ProcessIdentity.startTime): a process started
   * before it cannot carry the cookie, so its environment is not read. On a desktop with hundreds of processes that
   * halves the sweep at the end of every run. Absent or unknown: every process's environment is read.
   */
  cookieSince?: string | null;
  /**
   * The kernel's pid counters read just before the root was spawned (pid-allocation.ts): everything to sweep descends
   * from the root, so only processes given a pid from the root's on are read, as long as the counters show the pids
   * have not gone round since. Absent (a run recovered from an earlier od): every process is read.
   */
  spawnMark?: PidAllocationMark;
  /** How long the first signal gets before SIGKILL. */
  graceMs: number;
  /** First signal; default SIGTERM. */
  signal?: NodeJS.Signals;
  /** Aborted (a second Ctrl-C): the grace before SIGKILL ends at once; the SIGKILL rounds still run. */
  hurry?: AbortSignal;
};

// ---------------------------------------------------------------- pure parsers

/** Parse one `/proc/<pid>/stat` line (the comm field may hold spaces and parentheses). */
export function parseProcStat(line: string): ProcessEntry | null {
  const open = line.indexOf("(");
  const close = line.lastIndexOf(")");
  if (open <= 0 || close < open) return null;
  const pid = Number(line.slice(0, open).trim());
  const fields = line.slice(close + 1).trim().split(/\s+/);
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
 * The current process table (pid, ppid). Linux: /proc (only the pids `only` accepts, when given); macOS: ps;
 * Windows: []. Never throws.
 */
export async function readProcessSnapshot(only?: (pid: number) => boolean): Promise<ProcessEntry[]> {
  if (process.platform === "linux") {
    const entries = mapProcPids((pid) => parseProcStat(readFileSync(`/proc/${pid}/stat`, "latin1")), only);
    return entries.filter((entry): entry is ProcessEntry => entry !== null);
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
      const environ = readFileSync(`/proc/${pid}/environ`);
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
    waiting = waiting.filter((pid) => {
      let environ: Buffer;
      try {
        environ = readFileSync(`/proc/${pid}/environ`);
      } catch {
        return false; // gone
      }
      if (environ.length === 0) return true;
      if (environHasCookie(environ, cookie)) carriers.push(pid);
      return false;
    });
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

async function runPs(args: string[]): Promise<string> {
  try {
    const child = await spawnChild({ argv: ["ps", ...args], stdin: "ignore", env: { ...process.env, LC_ALL: "C" } });
    const chunks: Uint8Array[] = [];
    const drainStderr = (async () => {
      for await (const _chunk of child.stderr) void _chunk;
    })();
    for await (const chunk of child.stdout) chunks.push(chunk);
    await drainStderr;
    await child.exited;
    return Buffer.concat(chunks).toString("utf8");
  } catch {
    return "";
  }
}

// ---------------------------------------------------------------- the sweep

/**
 * The sweep after a run's group is gone: signal everything still carrying the run's cookie, or descending from
 * the root (or from a cookie carrier), plus the group while it has members; wait up to `graceMs` for them to
 * go, then SIGKILL the rest and re-sweep for anything forked meanwhile. Returns the pids it signalled, sorted.
 */
export async function killRunProcessTree(options: KillRunProcessTreeOptions): Promise<number[]> {
  const { rootPid, processGroup, graceMs } = options;
  const cookie = options.cookie && { ...options.cookie, since: linuxStartTicks(options.cookieSince) };
  // Windows: no environment scan and no groups here, and the root's pid may already be reused: leave it to the
  // child handle (a Job Object would be the real fix).
  if (process.platform === "win32") return [];
  const ownGroup = await ownProcessGroupId();
  const group = processGroup !== undefined && processGroup > 1 && processGroup !== process.pid && ownGroup !== null && processGroup !== ownGroup ? processGroup : null;

  const signalled = new Map<number, ProcessEntry>();
  const scope = { rootPid, ...(options.spawnMark ? { spawnMark: options.spawnMark } : {}) };
  const first = await collectTargets(scope, cookie);
  let targets = first.targets;
  const groupAlive = async () => group !== null && (await groupExists(group));
  // The common case (the agent left nothing behind) is judged from the snapshot just taken where it has the groups
  // (Linux), not from another scan.
  const groupAliveNow = group !== null && (process.platform === "linux" ? first.snapshot.some((entry) => entry.pgid === group && !entry.zombie) : await groupAlive());
  if (targets.length === 0 && !groupAliveNow) return [];
  if (group) signalGroup(group, options.signal ?? "SIGTERM");
  for (const target of targets) {
    if (signalPid(target.pid, options.signal ?? "SIGTERM")) signalled.set(target.pid, target);
  }
  await waitUntil(async () => !(await groupAlive()) && (await allGone([...signalled.values()])), graceMs, options.hurry);

  for (let round = 0; round < 3; round += 1) {
    const groupStillAlive = await groupAlive();
    if (group && groupStillAlive) signalGroup(group, "SIGKILL");
    targets = [...signalled.values(), ...(await collectTargets(scope, cookie)).targets];
    const alive: ProcessEntry[] = [];
    for (const target of targets) if (await isAlive(target)) alive.push(target);
    if (alive.length === 0 && !groupStillAlive) break;
    for (const target of alive) {
      if (signalPid(target.pid, "SIGKILL")) signalled.set(target.pid, target);
    }
    await waitUntil(() => allGone(alive), Math.max(graceMs, 1000));
  }
  return [...signalled.keys()].sort((a, b) => a - b);
}

/** The start time od records (ProcessIdentity.startTime) as Linux clock ticks; undefined elsewhere or unknown. */
function linuxStartTicks(startTime: string | null | undefined): number | undefined {
  if (process.platform !== "linux" || !startTime) return undefined;
  const ticks = Number(startTime);
  return Number.isFinite(ticks) ? ticks : undefined;
}

/**
 * Cookie carriers, the root while it is provably still ours, and every descendant of either; and the snapshot read.
 * Only processes started since `cookie.since` (when known) can carry the cookie: theirs are the environments read.
 * With a spawn mark, the snapshot holds only processes given a pid since the root (all that can be any of these).
 */
async function collectTargets(
  scope: { rootPid: number; spawnMark?: PidAllocationMark },
  cookie: (EnvCookie & { since?: number }) | undefined,
): Promise<{ targets: ProcessEntry[]; snapshot: ProcessEntry[] }> {
  const { rootPid } = scope;
  const now = scope.spawnMark && readPidAllocationNow();
  const snapshot = await readProcessSnapshot(now ? pidsAllocatedSince(rootPid, scope.spawnMark!, now) : undefined);
  const since = cookie?.since;
  const candidates = since === undefined ? undefined : snapshot.filter((entry) => !entry.zombie && (entry.startTime === undefined || entry.startTime >= since)).map((entry) => entry.pid);
  const carriers = cookie ? await findProcessesWithEnvCookie(cookie.name, cookie.value, candidates) : [];
  const live = snapshot.filter((entry) => !entry.zombie);
  const byPid = new Map(live.map((entry) => [entry.pid, entry]));
  const roots = new Set(carriers.filter((pid) => byPid.has(pid)));
  const root = byPid.get(rootPid);
  // A pid can be reused once the root is reaped: only trust it while it is still our child or carries the cookie.
  if (rootPid > 1 && rootPid !== process.pid && root && (root.ppid === process.pid || roots.has(rootPid))) roots.add(rootPid);
  const pids = new Set(roots);
  for (const pid of roots) for (const descendant of descendantsFromSnapshot(live, pid)) pids.add(descendant);
  return { targets: [...pids].filter(isSignallable).map((pid) => byPid.get(pid) ?? { pid, ppid: 0 }), snapshot };
}

function isSignallable(pid: number): boolean {
  return Number.isInteger(pid) && pid > 1 && pid !== process.pid;
}

function signalPid(pid: number, signal: NodeJS.Signals): boolean {
  if (!isSignallable(pid)) return false;
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false; // gone already, or not ours
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // The group has no members left.
  }
}

/** The group still has a live member (Linux ignores unreaped zombies, which `kill(-pgid, 0)` would count). */
async function groupExists(pgid: number): Promise<boolean> {
  if (process.platform === "linux") {
    return (await readProcessSnapshot()).some((entry) => entry.pgid === pgid && !entry.zombie);
  }
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === "EPERM";
  }
}

/** Alive and still the same process (Linux compares start times so a reused pid is not mistaken for it). */
async function isAlive(entry: ProcessEntry): Promise<boolean> {
  if (process.platform === "linux") {
    const now = readStat(entry.pid);
    if (!now || now.zombie) return false;
    return entry.startTime === undefined || now.startTime === entry.startTime;
  }
  try {
    process.kill(entry.pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === "EPERM";
  }
}

async function allGone(entries: readonly ProcessEntry[]): Promise<boolean> {
  for (const entry of entries) if (await isAlive(entry)) return false;
  return true;
}

/** Poll `done` every 20 ms until it holds, `timeoutMs` passes or `cutBy` aborts. */
async function waitUntil(done: () => boolean | Promise<boolean>, timeoutMs: number, cutBy?: AbortSignal): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await done()) return true;
    if (Date.now() >= deadline || cutBy?.aborted) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let cachedOwnGroup: number | null | undefined;

/** This process's group id (Linux: /proc/self/stat; macOS: ps), or null when unknown. */
export async function ownProcessGroupId(): Promise<number | null> {
  if (cachedOwnGroup !== undefined) return cachedOwnGroup;
  let pgid: number | null = null;
  if (process.platform === "linux") {
    const stat = readFileOr("/proc/self/stat", "");
    const close = stat.lastIndexOf(")");
    const value = close === -1 ? NaN : Number(stat.slice(close + 1).trim().split(/\s+/)[2]);
    pgid = Number.isInteger(value) ? value : null;
  } else if (process.platform === "darwin") {
    const value = Number((await runPs(["-o", "pgid=", "-p", String(process.pid)])).trim());
    pgid = Number.isInteger(value) && value > 0 ? value : null;
  }
  cachedOwnGroup = pgid;
  return pgid;
}

function readStat(pid: number): ProcessEntry | null {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, "latin1"));
  } catch {
    return null;
  }
}

function readFileOr(path: string, fallback: string): string {
  try {
    return readFileSync(path, "latin1");
  } catch {
    return fallback;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
