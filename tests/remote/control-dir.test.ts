// ssh's control sockets live where no other local user can write the folder or any folder above it: the data dir's
// ssh/, else a private XDG_RUNTIME_DIR, else a fresh mkdtemp folder. A second real account that pre-creates the
// old predictable folder (/tmp/od-ssh-<uid>), or offers folders of its own, neither gets used nor breaks od's ssh.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { MAX_CONTROL_DIR_BYTES, sshControlDir } from "../../server/machines/control-dir.ts";
import { runRemoteScript } from "../../server/machines/remote-exec.ts";
import { otherUser, type OtherUser } from "../support/other-user.ts";
import { startTestSshd, SSH_TEST_HOST, stopMasters, type TestSshd } from "../support/sshd.ts";
import { tempDir } from "../support/temp.ts";

const uid = process.getuid!();
let other: OtherUser;
let temp: { path: string; [Symbol.dispose](): void };
/** A world-writable sticky folder like /tmp, od's temp dir here. */
let shared: string;
let previousTmp: string | undefined;
let serial = 0;

beforeAll(() => {
  other = otherUser();
  temp = tempDir("od-ctl-");
  chmodSync(temp.path, 0o711); // the other account may pass through to the shared folder
  shared = join(temp.path, "tmp");
  mkdirSync(shared);
  chmodSync(shared, 0o1777);
  // What the temp dir is for code that asks the process (an older od did), and for the env od is given.
  previousTmp = process.env.TMPDIR;
  process.env.TMPDIR = shared;
});

afterAll(() => {
  if (previousTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previousTmp;
  temp?.[Symbol.dispose]();
});

/** A fresh data dir path of `length` bytes or more (not made: od makes it). */
function dataDirPath(length = 0): string {
  const base = join(temp.path, `d${++serial}`);
  return base.length >= length ? base : join(base, "x".repeat(length - base.length - 1));
}

/** A private folder of ours (what a login's XDG_RUNTIME_DIR is). */
function privateRuntimeDir(): string {
  const dir = join(temp.path, `run${++serial}`);
  mkdirSync(dir, { mode: 0o700 });
  return dir;
}

/** The folder is a real 0700 folder of ours, and every folder above it is root's or ours and, unless sticky, writable by nobody else. */
function expectPrivateChain(dir: string): void {
  const stat = lstatSync(dir);
  expect([stat.isDirectory(), stat.uid, (stat.mode & 0o777).toString(8)]).toEqual([true, uid, "700"]);
  expect(Buffer.byteLength(dir)).toBeLessThanOrEqual(MAX_CONTROL_DIR_BYTES);
  for (let current = dirname(dir); ; current = dirname(current)) {
    const above = lstatSync(current);
    expect([current, [0, uid].includes(above.uid), (above.mode & 0o022) === 0 || (above.mode & 0o1000) !== 0]).toEqual([current, true, true]);
    if (dirname(current) === current) break;
  }
}

describe("the ssh control-socket folder", () => {
  test("a data dir short enough: its own ssh/ folder", () => {
    const dataDir = dataDirPath();
    const dir = sshControlDir({ TMPDIR: shared }, dataDir);
    expect(dir).toBe(join(dataDir, "ssh"));
    expectPrivateChain(dir);
  });

  test("a data dir too long for a socket path: od-ssh/ in a private XDG_RUNTIME_DIR", () => {
    const runtime = privateRuntimeDir();
    const dir = sshControlDir({ TMPDIR: shared, XDG_RUNTIME_DIR: runtime }, dataDirPath(80));
    expect(dir).toBe(join(runtime, "od-ssh"));
    expectPrivateChain(dir);
  });

  test("neither: a fresh mkdtemp folder in the temp dir, never the old predictable name", () => {
    const dir = sshControlDir({ TMPDIR: shared }, dataDirPath(80));
    expect(dirname(dir)).toBe(shared);
    expect(dir).toMatch(/\/od-ssh-[A-Za-z0-9]{6}$/);
    expect(dir).not.toBe(join(shared, `od-ssh-${uid}`));
    expectPrivateChain(dir);
  });

  test("another user's XDG_RUNTIME_DIR, or a loosened one, is passed over", () => {
    const theirs = join(shared, `xdg-${++serial}`);
    expect(other.run(["mkdir", "-m", "700", theirs]).code).toBe(0);
    const loose = privateRuntimeDir();
    chmodSync(loose, 0o777);
    for (const runtime of [theirs, loose]) {
      const dir = sshControlDir({ TMPDIR: shared, XDG_RUNTIME_DIR: runtime }, dataDirPath(80));
      expect(dir.startsWith(`${runtime}/`)).toBe(false);
      expectPrivateChain(dir);
    }
  });

  test("a data dir inside a folder another user can write (not sticky), or an ssh/ there that is a symlink, is passed over", () => {
    const open = join(temp.path, `open${++serial}`);
    mkdirSync(open);
    chmodSync(open, 0o777);
    const runtime = privateRuntimeDir();
    const inOpen = sshControlDir({ TMPDIR: shared, XDG_RUNTIME_DIR: runtime }, join(open, "data"));
    expect(inOpen).toBe(join(runtime, "od-ssh"));

    const dataDir = dataDirPath();
    const elsewhere = privateRuntimeDir();
    mkdirSync(dataDir, { mode: 0o700 });
    symlinkSync(elsewhere, join(dataDir, "ssh"));
    const runtime2 = privateRuntimeDir();
    expect(sshControlDir({ TMPDIR: shared, XDG_RUNTIME_DIR: runtime2 }, dataDir)).toBe(join(runtime2, "od-ssh"));
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});

describe("over a real sshd, with the old folder planted by another user", () => {
  let sshd: TestSshd;
  beforeAll(async () => {
    sshd = await startTestSshd();
  });
  afterAll(() => sshd?.close());

  test("od's ssh still connects, its master's socket in the data dir, nothing in the planted folder", async () => {
    const planted = join(shared, `od-ssh-${uid}`);
    // Their own folder at the name od once used: od refused it, and every remote action failed.
    expect(other.run(["mkdir", "-m", "777", planted]).code).toBe(0);
    const dataDir = dataDirPath();
    const location = { kind: "ssh", host: SSH_TEST_HOST, path: "/" } as const;
    const result = await runRemoteScript(location, "echo ok", [], { env: { ...process.env, ...sshd.env, TMPDIR: shared }, dataDir }, { timeoutMs: 30_000 });
    const controlDir = join(dataDir, "ssh");
    try {
      expect(result.kind === "exited" && new TextDecoder().decode(result.stdout)).toBe("ok\n");
      const sockets = readdirSync(controlDir);
      expect(sockets).toHaveLength(1);
      expect(statSync(join(controlDir, sockets[0]!)).isSocket()).toBe(true);
      expect(readdirSync(planted)).toEqual([]);
      expectPrivateChain(controlDir);
    } finally {
      stopMasters(controlDir);
    }
  }, 60_000);
});
