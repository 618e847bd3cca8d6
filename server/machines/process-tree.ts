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
import { readFileSync } from "node:fs";
import { pidsAllocatedSince, readPidAllocationNow, type PidAllocationMark } from "./pid-allocation.ts";
import { descendantsFromSnapshot, findProcessesWithEnvCookie, readProcessSnapshot, readStat, runPs, type EnvCookie, type ProcessEntry } from "./process-table.ts";

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
  const candidate = processGroup !== undefined && processGroup > 1 && processGroup !== process.pid ? processGroup : null;

  const signalled = new Map<number, ProcessEntry>();
  const scope = { rootPid, ...(options.spawnMark ? { spawnMark: options.spawnMark } : {}) };
  const first = await collectTargets(scope, cookie);
  let targets = first.targets;
  // The common case (the agent left nothing behind) is judged from the snapshot just taken where it has the groups
  // (Linux), not from another scan.
  const candidateAlive = candidate !== null && (process.platform === "linux" ? first.snapshot.some((entry) => entry.pgid === candidate && !entry.zombie) : await groupExists(candidate));
  if (targets.length === 0 && !candidateAlive) return [];
  // Never this process's own group: read (/proc/self/stat) only once there is something to end, not at the end of
  // every run that left nothing behind.
  const ownGroup = await ownProcessGroupId();
  const group = candidate !== null && ownGroup !== null && candidate !== ownGroup ? candidate : null;
  if (targets.length === 0 && group === null) return [];
  const groupAlive = async () => group !== null && (await groupExists(group));
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
export async function groupExists(pgid: number): Promise<boolean> {
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

function readFileOr(path: string, fallback: string): string {
  try {
    return readFileSync(path, "latin1");
  } catch {
    return fallback;
  }
}
