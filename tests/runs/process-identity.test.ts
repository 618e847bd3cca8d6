// Issue #17: a restarted od must tell a live owner of a run from a zombie or from a process that reused its pid.
import { describe, expect, test } from "bun:test";
import { spawnChild } from "../../server/platform/process.ts";
import { isSameProcessRunning, ownProcessIdentity, parsePsStatLstart, processState } from "../../server/runs/process-identity.ts";
import { startZombie } from "../support/zombie.ts";

describe("process identity", () => {
  test("ps output: state and start time, a zombie, nothing (gone)", () => {
    expect(parsePsStatLstart("Ss   Thu Dec  3 00:16:44 2026\n")).toEqual({ state: "running", startTime: "Thu Dec 3 00:16:44 2026" });
    expect(parsePsStatLstart("Z+   Thu Dec  3 00:16:44 2026\n")).toEqual({ state: "zombie" });
    expect(parsePsStatLstart("")).toEqual({ state: "gone" });
  });

  test("this process has a start time, and its identity matches itself", () => {
    const own = ownProcessIdentity();
    expect(own.pid).toBe(process.pid);
    expect(own.startTime).not.toBeNull();
    expect(isSameProcessRunning(own)).toBe(true);
  });

  test("a zombie passes `kill(pid, 0)` but is not running", async () => {
    await using zombie = await startZombie();
    const pid = zombie.zombiePid;
    expect(() => process.kill(pid, 0)).not.toThrow();
    expect(processState(pid)).toEqual({ state: "zombie" });
    expect(isSameProcessRunning({ pid, startTime: null })).toBe(false);
  });

  test("a live pid with another start time is a reused pid, not the owner", async () => {
    const other = await spawnChild({ argv: ["sleep", "600"], stdin: "ignore" });
    try {
      const now = processState(other.pid);
      expect(now.state).toBe("running");
      const startTime = now.state === "running" ? now.startTime : null;
      expect(isSameProcessRunning({ pid: other.pid, startTime })).toBe(true);
      expect(isSameProcessRunning({ pid: other.pid, startTime: `${startTime} (another)` })).toBe(false);
    } finally {
      other.kill("SIGKILL");
      await other.exited;
    }
    expect(isSameProcessRunning({ pid: other.pid, startTime: null })).toBe(false);
  });
});
