/**
 * Telling a live process from a dead one that only looks alive. `process.kill(pid, 0)` succeeds for a zombie (an
 * od killed with SIGKILL whose parent has not reaped it yet) and for an unrelated process that got the pid after
 * od died. So od records, beside the pid of the process that owns a run, when that process started, and a
 * restart treats the owner as alive only if the pid is not a zombie and started at that same moment.
 *
 * Linux reads /proc/PID/stat (state and start time, field 22, in clock ticks since boot); macOS asks
 * `ps -o stat=,lstart=`; elsewhere the start time is unknown and only the pid is checked.
 */
import { readFileSync } from "node:fs";
import type * as ChildProcessModule from "node:child_process";
import { parseProcStat } from "../machines/process-table.ts";

/** A process as od records it: its pid, and when it started (an opaque text; null where unknown). */
export type ProcessIdentity = { pid: number; startTime: string | null };

/** What the OS says about a pid now: gone, a zombie, or running since `startTime`. */
export type ProcessState = { state: "gone" } | { state: "zombie" } | { state: "running"; startTime: string | null };

/** Parse `ps -o stat=,lstart= -p PID` output (e.g. `Ss   Thu Dec  3 00:16:44 2026`). Empty output: gone. */
export function parsePsStatLstart(output: string): ProcessState {
  const match = /^\s*(\S+)\s+(.+?)\s*$/m.exec(output);
  if (!match) return { state: "gone" };
  if (match[1]!.startsWith("Z")) return { state: "zombie" };
  return { state: "running", startTime: match[2]!.replace(/\s+/g, " ") };
}

/** The state of `pid` now. Never throws. */
export function processState(pid: number, platform: NodeJS.Platform = process.platform): ProcessState {
  if (!Number.isInteger(pid) || pid <= 0) return { state: "gone" };
  if (platform === "linux") {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    } catch {
      return existsBySignal(pid) ? { state: "running", startTime: null } : { state: "gone" };
    }
    const entry = parseProcStat(stat);
    if (!entry) return { state: "running", startTime: null };
    if (entry.zombie) return { state: "zombie" };
    return { state: "running", startTime: entry.startTime === undefined ? null : String(entry.startTime) };
  }
  if (platform === "darwin") {
    // Loaded here, on macOS only: node:child_process is ~3 ms of start-up that Linux never needs.
    const { spawnSync } = process.getBuiltinModule("node:child_process") as typeof ChildProcessModule;
    const ps = spawnSync("ps", ["-o", "stat=,lstart=", "-p", String(pid)], { encoding: "utf8", env: { ...process.env, LC_ALL: "C" }, timeout: 5000 });
    if (!ps.error && typeof ps.stdout === "string") return parsePsStatLstart(ps.stdout);
  }
  return existsBySignal(pid) ? { state: "running", startTime: null } : { state: "gone" };
}

let own: ProcessIdentity | undefined;

/** This process's identity (computed once). */
export function ownProcessIdentity(): ProcessIdentity {
  if (own) return own;
  const now = processState(process.pid);
  own = { pid: process.pid, startTime: now.state === "running" ? now.startTime : null };
  return own;
}

/**
 * True while the process `identity` names still runs: its pid is neither gone nor a zombie, and (when both start
 * times are known) it started when the recorded one did — a different start time means the pid was reused.
 */
export function isSameProcessRunning(identity: ProcessIdentity, platform: NodeJS.Platform = process.platform): boolean {
  const now = processState(identity.pid, platform);
  if (now.state !== "running") return false;
  return identity.startTime === null || now.startTime === null || now.startTime === identity.startTime;
}

function existsBySignal(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but is not ours to signal.
    return (error as { code?: string }).code === "EPERM";
  }
}
