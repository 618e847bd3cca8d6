/**
 * Stopping an agent, the same way on every path (done, cancel, timeout, daemon shutdown):
 * protocol cancel → close stdin → SIGTERM to the group → SIGKILL after the grace → reap, then sweep every
 * process still carrying the run's cookie (tool shells that started their own session, workers of node wrappers).
 */
import type { ChildHandle } from "../platform/process.ts";
import type { ProtocolSession } from "../runtimes/protocols/types.ts";
import type { PidAllocationMark } from "../machines/pid-allocation.ts";
import { ownProcessIdentity } from "./process-identity.ts";
import { killRunProcessTree } from "../machines/process-tree.ts";

export type StopOptions = {
  child: ChildHandle;
  session?: ProtocolSession;
  /**
   * The run's cookie, swept for on this machine once the group is gone. Absent for a remote run: here it has only
   * the ssh or docker client, which never carries it; the sweep for it runs on the remote side.
   */
  cookie?: { name: string; value: string };
  /** The kernel's pid counters read just before the child was spawned: the sweep then reads only newer processes. */
  spawnMark?: PidAllocationMark;
  graceMs: number;
  /**
   * Aborted when the user asks twice (a second Ctrl-C): every grace period ends at once. Each step still runs —
   * SIGKILL still follows SIGTERM and the sweep still runs — so hurrying never leaves a process behind.
   */
  hurry?: AbortSignal;
};

/** Returns the pids the final sweep had to kill. */
export async function stopProcessTree(options: StopOptions): Promise<number[]> {
  const { child, session, graceMs, hurry } = options;
  let exited = false;
  void child.exited.then(() => (exited = true));
  const waitExit = (ms: number, cutBy?: AbortSignal) => Promise.race([child.exited.then(() => true), delay(ms, cutBy).then(() => exited)]);

  if (!exited && session) {
    await Promise.race([session.cancel().catch(() => undefined), delay(graceMs, hurry)]);
    if (!(await waitExit(Math.min(graceMs, 1000), hurry))) child.stdin?.end();
  } else {
    child.stdin?.end();
  }
  if (!exited && !(await waitExit(session ? graceMs / 2 : 50, hurry))) {
    child.kill("SIGTERM", { group: true });
    if (!(await waitExit(graceMs, hurry))) {
      child.kill("SIGKILL", { group: true });
      await waitExit(graceMs);
    }
  } else {
    // The leader is gone; its group may not be.
    child.kill("SIGTERM", { group: true });
  }
  // This process started the agent and handed it the cookie: nothing older than this process can carry it.
  const cookie = options.cookie ? { cookie: options.cookie, cookieSince: ownProcessIdentity().startTime } : {};
  return killRunProcessTree({
    rootPid: child.pid,
    processGroup: child.pid,
    graceMs,
    signal: "SIGTERM",
    ...cookie,
    ...(options.spawnMark ? { spawnMark: options.spawnMark } : {}),
    ...(hurry ? { hurry } : {}),
  });
}

/** Resolves after `ms`, or as soon as `cutBy` aborts. */
function delay(ms: number, cutBy?: AbortSignal): Promise<void> {
  if (cutBy?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      cutBy?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    cutBy?.addEventListener("abort", done, { once: true });
  });
}
