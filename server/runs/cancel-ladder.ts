/**
 * Stopping an agent, the same way on every path (done, cancel, timeout, daemon shutdown):
 * protocol cancel → close stdin → SIGTERM to the group → SIGKILL after the grace → reap, then sweep every
 * process still carrying the run's cookie (tool shells that started their own session, workers of node wrappers).
 */
import type { ChildHandle } from "../platform/process.ts";
import type { ProtocolSession } from "../runtimes/protocols/types.ts";
import { killRunProcessTree } from "./process-tree.ts";

export type StopOptions = {
  child: ChildHandle;
  session?: ProtocolSession;
  cookie: { name: string; value: string };
  graceMs: number;
};

/** Returns the pids the final sweep had to kill. */
export async function stopProcessTree(options: StopOptions): Promise<number[]> {
  const { child, session, graceMs } = options;
  let exited = false;
  void child.exited.then(() => (exited = true));
  const waitExit = (ms: number) => Promise.race([child.exited.then(() => true), delay(ms).then(() => exited)]);

  if (!exited && session) {
    await Promise.race([session.cancel().catch(() => undefined), delay(graceMs)]);
    if (!(await waitExit(Math.min(graceMs, 1000)))) child.stdin?.end();
  } else {
    child.stdin?.end();
  }
  if (!exited && !(await waitExit(session ? graceMs / 2 : 50))) {
    child.kill("SIGTERM", { group: true });
    if (!(await waitExit(graceMs))) {
      child.kill("SIGKILL", { group: true });
      await waitExit(graceMs);
    }
  } else {
    // The leader is gone; its group may not be.
    child.kill("SIGTERM", { group: true });
  }
  return killRunProcessTree({ rootPid: child.pid, processGroup: child.pid, cookie: options.cookie, graceMs, signal: "SIGTERM" });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
