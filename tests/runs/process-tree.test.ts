import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { spawnChild, type ChildHandle } from "../../server/platform/process.ts";
import {
  descendantsFromSnapshot,
  descendantsOf,
  environHasCookie,
  findProcessesWithEnvCookie,
  parseProcStat,
  parsePsEnvOutput,
  parsePsPidPpid,
} from "../../server/machines/process-table.ts";
import { killRunProcessTree } from "../../server/machines/process-tree.ts";
import { readPidAllocationMark } from "../../server/machines/pid-allocation.ts";
import { tempDir } from "../support/temp.ts";

const COOKIE_NAME = "OD_TEST_RUN_COOKIE";
const cookies: { name: string; value: string }[] = [];
const uniqueCookie = () => {
  const cookie = { name: COOKIE_NAME, value: `t-${process.pid}-${crypto.randomUUID()}` };
  cookies.push(cookie);
  return cookie;
};

describe("pure parsers", () => {
  test("ps eww output: exact NAME=value words only", () => {
    const sample = [
      "    1 /sbin/launchd",
      "  412 /bin/sh -c sleep 100 PATH=/usr/bin:/bin OD_RUN_COOKIE=abc-123 HOME=/Users/me",
      "  413 /usr/bin/node cli.js OD_RUN_COOKIE=abc-1234 HOME=/Users/me",
      "  414 sleep 5 OD_RUN_COOKIE=abc-123",
      "  415 /bin/zsh XOD_RUN_COOKIE=abc-123",
      "garbage line",
      "",
    ].join("\n");
    expect(parsePsEnvOutput(sample, { name: "OD_RUN_COOKIE", value: "abc-123" })).toEqual([412, 414]);
    expect(parsePsEnvOutput(sample, { name: "OD_RUN_COOKIE", value: "a.c-123" })).toEqual([]);
  });

  test("ps pid/ppid output", () => {
    expect(parsePsPidPpid("  1     0\n 20    1\nbad\n 21   20\n")).toEqual([
      { pid: 1, ppid: 0 },
      { pid: 20, ppid: 1 },
      { pid: 21, ppid: 20 },
    ]);
  });

  test("/proc/<pid>/stat with a comm holding spaces and parentheses", () => {
    const line = "4242 (my (odd) cmd) S 4000 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 200";
    expect(parseProcStat(line)).toEqual({ pid: 4242, ppid: 4000, pgid: 4242, startTime: 987654 });
    expect(parseProcStat("77 (sh) Z 1 77 77 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5 0 0")?.zombie).toBe(true);
    expect(parseProcStat("nonsense")).toBeNull();
    // kthreadd: PF_KTHREAD (0x200000) in its flags.
    expect(parseProcStat("2 (kthreadd) S 0 0 0 0 -1 2129984 0 0 0 0 0 0 0 0 20 0 1 0 7 0 0")?.kernelThread).toBe(true);
  });

  test("environ blocks match whole entries only", () => {
    const cookie = { name: "C", value: "v1" };
    expect(environHasCookie("A=1\0C=v1\0B=2\0", cookie)).toBe(true);
    expect(environHasCookie("C=v1", cookie)).toBe(true);
    expect(environHasCookie("A=1\0C=v10\0", cookie)).toBe(false);
    expect(environHasCookie("XC=v1\0", cookie)).toBe(false);
    expect(environHasCookie(new TextEncoder().encode("A=1\0C=v1\0"), cookie)).toBe(true);
  });

  test("descendants over a snapshot, cycle-safe", () => {
    const snapshot = [
      { pid: 10, ppid: 1 },
      { pid: 11, ppid: 10 },
      { pid: 12, ppid: 11 },
      { pid: 13, ppid: 10 },
      { pid: 20, ppid: 1 },
      { pid: 30, ppid: 31 },
      { pid: 31, ppid: 30 },
    ];
    expect(descendantsFromSnapshot(snapshot, 10).sort()).toEqual([11, 12, 13]);
    expect(descendantsFromSnapshot(snapshot, 20)).toEqual([]);
    expect(descendantsFromSnapshot(snapshot, 30)).toEqual([31]);
  });
});

const onLinux = process.platform === "linux";
const started: ChildHandle[] = [];
/** Pids a test learned about (grandchildren outside any group we own), killed even when the test fails. */
const strays: { pid: number; startTime?: number }[] = [];
const statOf = (pid: number) => (existsSync(`/proc/${pid}/stat`) ? parseProcStat(readFileSync(`/proc/${pid}/stat`, "latin1")) : null);
/** Remember a pid for cleanup with its start time, so a reused pid is never killed by mistake. */
function trackStray(pid: number): number {
  strays.push({ pid, ...(statOf(pid)?.startTime !== undefined ? { startTime: statOf(pid)?.startTime } : {}) });
  return pid;
}

async function start(script: string, env: Record<string, string> = {}, ownProcessGroup = true): Promise<ChildHandle> {
  const child = await spawnChild({ argv: ["sh", "-c", script], env: { PATH: process.env.PATH, ...env }, stdin: "ignore", ownProcessGroup });
  started.push(child);
  return child;
}

function alive(pid: number): boolean {
  const stat = statOf(pid);
  return Boolean(stat && !stat.zombie);
}

async function until<T>(probe: () => T | Promise<T>, ok: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Waits until the shell has exec'd `sleep` and its new environment reads back with the cookie. The name alone is not
 * enough: exec sets it before it maps the new environment, and until then `/proc/<pid>/environ` reads as empty (on a
 * busy machine a sweep right after the name changed once found no carrier).
 */
async function becameCarrier(pid: number, cookie: { name: string; value: string }): Promise<void> {
  await until(() => (existsSync(`/proc/${pid}/comm`) ? readFileSync(`/proc/${pid}/comm`, "utf8").trim() : ""), (comm) => comm === "sleep");
  await until(() => findProcessesWithEnvCookie(cookie.name, cookie.value, [pid]), (pids) => pids.length === 1);
}

afterEach(async () => {
  for (const child of started.splice(0)) child.kill("SIGKILL", { group: true });
  const carriers = onLinux ? (await Promise.all(cookies.splice(0).map((c) => findProcessesWithEnvCookie(c.name, c.value)))).flat() : [];
  const sameStrays = strays.splice(0).filter((stray) => stray.startTime !== undefined && statOf(stray.pid)?.startTime === stray.startTime);
  for (const pid of [...sameStrays.map((stray) => stray.pid), ...carriers]) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
});

describe.if(onLinux)("on Linux, with real processes", () => {
  test("findProcessesWithEnvCookie finds exactly the carriers of name=value", async () => {
    const cookie = uniqueCookie();
    const carrier = await start("exec sleep 1000", { [cookie.name]: cookie.value });
    const lookalike = await start("exec sleep 1000", { [cookie.name]: `${cookie.value}x` });
    const found = await until(() => findProcessesWithEnvCookie(cookie.name, cookie.value), (pids) => pids.includes(carrier.pid));
    expect(found).toEqual([carrier.pid]);
    expect(found).not.toContain(lookalike.pid);
    expect(found).not.toContain(process.pid);
  });

  test("findProcessesWithEnvCookie reads only the environments it is given (a sweep passes the ones started since its od)", async () => {
    const cookie = uniqueCookie();
    const carrier = await start("exec sleep 1000", { [cookie.name]: cookie.value });
    await becameCarrier(carrier.pid, cookie);
    expect(await findProcessesWithEnvCookie(cookie.name, cookie.value, [carrier.pid])).toEqual([carrier.pid]);
    expect(await findProcessesWithEnvCookie(cookie.name, cookie.value, [process.pid])).toEqual([]);
  });

  test("a carrier caught mid-exec, its new name set but its environment not yet mapped, is still found", async () => {
    // Right after exec renames a process, its environment reads as empty for a moment: a poll that sees the new name
    // at once catches most processes in that moment on this kernel.
    for (let attempt = 0; attempt < 5; attempt++) {
      const cookie = uniqueCookie();
      const carrier = await start("exec sleep 1000", { [cookie.name]: cookie.value }, false);
      const comm = `/proc/${carrier.pid}/comm`;
      for (let polls = 0; polls < 1_000_000; polls++) {
        if (existsSync(comm) && readFileSync(comm, "utf8").trim() === "sleep") break;
      }
      expect(await findProcessesWithEnvCookie(cookie.name, cookie.value, [carrier.pid])).toEqual([carrier.pid]);
    }
  });

  test("the sweep passes over cookie carriers older than the od that handed out the cookie, and takes the rest", async () => {
    const cookie = uniqueCookie();
    const older = await start("exec sleep 1000", { [cookie.name]: cookie.value }, false);
    const olderStart = (await until(() => statOf(older.pid), (stat) => stat?.startTime !== undefined))!.startTime!;
    // A clock tick later (10 ms on Linux) the "od" starts, and its agent's process after it.
    await Bun.sleep(30);
    const newer = await start("exec sleep 1000", { [cookie.name]: cookie.value }, false);
    const newerStart = (await until(() => statOf(newer.pid), (stat) => stat?.startTime !== undefined))!.startTime!;
    await becameCarrier(older.pid, cookie);
    await becameCarrier(newer.pid, cookie);
    expect(newerStart).toBeGreaterThan(olderStart);

    const killed = await killRunProcessTree({ rootPid: 0, cookie, cookieSince: String(newerStart), graceMs: 200 });
    expect(killed).toEqual([newer.pid]);
    expect(alive(older.pid)).toBe(true);
    expect(await killRunProcessTree({ rootPid: 0, cookie, cookieSince: String(olderStart), graceMs: 200 })).toEqual([older.pid]);
  });

  test("descendantsOf walks children and grandchildren", async () => {
    using dir = tempDir("od-ptree-");
    const pidFile = join(dir.path, "grandchild");
    const root = await start(`sh -c 'echo $$ > "${pidFile}"; exec sleep 1000' & wait`);
    await until(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "", Boolean);
    const grandchild = trackStray(Number(readFileSync(pidFile, "utf8")));
    const descendants = await until(() => descendantsOf(root.pid), (pids) => pids.includes(grandchild));
    expect(descendants).toContain(grandchild);
    expect(await descendantsOf(grandchild)).toEqual([]);
  });

  test("an orphan in its own session that ignores SIGTERM is SIGKILLed; bystanders are untouched", async () => {
    using dir = tempDir("od-ptree-");
    const pidFile = join(dir.path, "orphan");
    const cookie = uniqueCookie();
    // The run: a shell that starts a setsid grandchild which ignores SIGTERM, like Claude Code's tool shells.
    const run = await start(
      `setsid sh -c 'trap "" TERM; echo $$ > "${pidFile}"; exec sleep 1000' </dev/null >/dev/null 2>&1 & wait`,
      { [cookie.name]: cookie.value },
    );
    const sameNameOtherValue = await start("exec sleep 1000", { [cookie.name]: `${cookie.value}-other` }, false);
    const noCookie = await start("exec sleep 1000", {}, false);
    await until(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "", Boolean);
    const orphan = trackStray(Number(readFileSync(pidFile, "utf8")));

    // What the cancel ladder does first: the group goes, the setsid grandchild stays.
    run.kill("SIGTERM", { group: true });
    await run.exited;
    expect(alive(orphan)).toBe(true);

    const killed = await killRunProcessTree({ rootPid: run.pid, processGroup: run.pid, cookie, graceMs: 200, signal: "SIGTERM" });
    expect(killed).toContain(orphan);
    const left = await until(() => findProcessesWithEnvCookie(cookie.name, cookie.value), (pids) => pids.length === 0);
    expect(left).toEqual([]);
    expect(alive(orphan)).toBe(false);
    expect(alive(sameNameOtherValue.pid)).toBe(true);
    expect(alive(noCookie.pid)).toBe(true);
    expect(alive(process.pid)).toBe(true);
  });

  test("with a spawn mark, only processes started since the root are read: an older cookie carrier is passed over", async () => {
    using dir = tempDir("od-ptree-");
    const pidFile = join(dir.path, "orphan");
    const cookie = uniqueCookie();
    // No agent's process can be older than its spawn: this carrier stands for one, to show it is never read.
    const older = await start("exec sleep 1000", { [cookie.name]: cookie.value }, false);
    await becameCarrier(older.pid, cookie);
    const spawnMark = readPidAllocationMark()!;
    const run = await start(`setsid sh -c 'echo $$ > "${pidFile}"; exec sleep 1000' </dev/null >/dev/null 2>&1 & wait`, { [cookie.name]: cookie.value });
    await until(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "", Boolean);
    const orphan = trackStray(Number(readFileSync(pidFile, "utf8")));
    await becameCarrier(orphan, cookie);
    run.kill("SIGTERM", { group: true });
    await run.exited;

    const killed = await killRunProcessTree({ rootPid: run.pid, processGroup: run.pid, cookie, spawnMark, graceMs: 200 });
    expect(killed).toEqual([orphan]);
    expect(alive(older.pid)).toBe(true);
    // Without the mark every process is read, the older carrier included.
    expect(await killRunProcessTree({ rootPid: run.pid, processGroup: run.pid, cookie, graceMs: 200 })).toEqual([older.pid]);
  });

  test("with the root still running, the root and a descendant that dropped the cookie go too", async () => {
    using dir = tempDir("od-ptree-");
    const pidFile = join(dir.path, "scrubbed");
    const cookie = uniqueCookie();
    const run = await start(`env -i sh -c 'trap "" TERM; echo $$ > "${pidFile}"; exec sleep 1000' & wait`, { [cookie.name]: cookie.value });
    await until(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "", Boolean);
    const scrubbed = trackStray(Number(readFileSync(pidFile, "utf8")));

    const killed = await killRunProcessTree({ rootPid: run.pid, processGroup: run.pid, cookie, graceMs: 200 });
    expect(killed).toEqual(expect.arrayContaining([run.pid, scrubbed]));
    await run.exited;
    expect(await until(() => alive(scrubbed), (isAlive) => !isAlive)).toBe(false);
  });

  test("never signals pid 1, itself or its own group; a run with nothing left is a no-op", async () => {
    const cookie = uniqueCookie();
    expect(await killRunProcessTree({ rootPid: 1, processGroup: 1, cookie, graceMs: 50 })).toEqual([]);
    expect(await killRunProcessTree({ rootPid: process.pid, processGroup: process.pid, cookie, graceMs: 50 })).toEqual([]);
    const ownGroup = parseProcStat(readFileSync("/proc/self/stat", "latin1"))?.pgid ?? process.pid;
    expect(await killRunProcessTree({ rootPid: 999_999_999, processGroup: ownGroup, cookie, graceMs: 50 })).toEqual([]);
    expect(alive(process.pid)).toBe(true);
  });
});
