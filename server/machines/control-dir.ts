/**
 * The folder of ssh's ControlMaster sockets (`ControlPath=<dir>/%C`). Whoever can replace that folder, or any folder
 * above it, can put a master of their own in its place: od's ssh clients then connect to it, hand it the agent's
 * environment (API keys) on stdin and believe its answers. So the folder must be one no other user can write, nor
 * any folder above it (a sticky one like /tmp excepted: there nobody can rename or remove what is not theirs), and
 * the folder itself must be ours, a real folder (never followed through a symlink) that only we can enter.
 *
 * A unix socket's path is at most 107 bytes, and ssh's master first binds `<dir>/<40-hex %C>.<16 random chars>`, so
 * the folder's own path can take at most 49. In order:
 * 1. `<data dir>/ssh`: the data dir is 0700 already, and short at its default (`~/.od`);
 * 2. `$XDG_RUNTIME_DIR/od-ssh`, when that is private to us (the login's own 0700 tmpfs, `/run/user/<uid>`);
 * 3. a folder made with mkdtemp in the temp dir (when that is root's sticky /tmp or ours): a fresh name no one can
 *    guess or plant first, made 0700 by us, which the sticky bit keeps from being renamed — one per od process.
 * A folder that fails the checks (someone else's, loosened, a symlink) is passed over, never trusted and never fatal.
 */
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, mkdtempSync, openSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { resolveDataDir } from "../paths.ts";

/** sun_path holds 108 bytes with its NUL; ssh adds `/` + 40 (%C) + `.` + 16 (its temp name) to the folder's path. */
export const MAX_CONTROL_DIR_BYTES = 107 - 1 - 40 - 1 - 16;

const chosen = new Map<string, string>();

/** The control-socket folder for `env` (its data dir by default), checked and made once per process. */
export function sshControlDir(env: Record<string, string | undefined>, dataDir: string = resolveDataDir(env)): string {
  const key = `${dataDir}\0${env.XDG_RUNTIME_DIR ?? ""}\0${env.TMPDIR ?? ""}`;
  let dir = chosen.get(key);
  if (dir === undefined) chosen.set(key, (dir = chooseControlDir(env, dataDir)));
  return dir;
}

function chooseControlDir(env: Record<string, string | undefined>, dataDir: string): string {
  const fromDataDir = privateChild(resolve(dataDir), "ssh", { makeParent: true });
  if (fromDataDir) return fromDataDir;
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime && isAbsolute(runtime) && isOwnPrivateFolder(runtime)) {
    const fromRuntime = privateChild(runtime, "od-ssh");
    if (fromRuntime) return fromRuntime;
  }
  const temp = env.TMPDIR && isAbsolute(env.TMPDIR) ? env.TMPDIR : "/tmp";
  if (fits(join(temp, "od-ssh-XXXXXX")) && isSafeChain(temp)) return mkdtempSync(join(temp, "od-ssh-"));
  throw new Error(
    `no private folder for ssh's control sockets: ${dataDir} is too long or not private, XDG_RUNTIME_DIR is unset or not private, and ${temp} is writable by others; set OD_DATA_DIR to a shorter path`,
  );
}

/** `<parent>/<name>`, made 0700 if missing, when it fits and it and every folder above it are safe; else undefined. */
function privateChild(parent: string, name: string, options: { makeParent?: boolean } = {}): string | undefined {
  const dir = join(parent, name);
  if (!fits(dir)) return undefined;
  try {
    if (options.makeParent) mkdirSync(parent, { recursive: true, mode: 0o700 });
    // mkdir never follows a symlink in the last place: an existing one (or anything else) there is EEXIST.
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") return undefined;
  }
  return ownPrivateFolder(dir) && isSafeChain(parent) ? dir : undefined;
}

/**
 * True when `dir` is a real folder of ours (opened without following a symlink) that no one else can enter. A looser
 * one is passed over, not tightened: whatever someone planted in it meanwhile (a socket named like ours) would stay.
 */
function ownPrivateFolder(dir: string): boolean {
  let fd: number;
  try {
    fd = openSync(dir, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_DIRECTORY);
  } catch {
    return false;
  }
  try {
    const stat = fstatSync(fd);
    return stat.isDirectory() && stat.uid === uid() && (stat.mode & 0o077) === 0;
  } finally {
    closeSync(fd);
  }
}

/** True when `dir` is a real folder of ours that no one else can enter, and nothing above it can be swapped. */
function isOwnPrivateFolder(dir: string): boolean {
  try {
    const stat = lstatSync(dir);
    return stat.isDirectory() && stat.uid === uid() && (stat.mode & 0o077) === 0 && isSafeChain(dir);
  } catch {
    return false;
  }
}

/**
 * True when no other user can rename or replace `dir` or any folder above it: each is root's or ours, and writable
 * by group or others only when sticky. Checked along the path as given and along the real path it leads to.
 */
function isSafeChain(dir: string): boolean {
  try {
    return [resolve(dir), realpathSync(dir)].every((path) => {
      for (let current = path; ; current = dirname(current)) {
        const stat = lstatSync(current);
        if (stat.uid !== 0 && stat.uid !== uid()) return false;
        if (!stat.isSymbolicLink() && stat.mode & 0o022 && !(stat.mode & 0o1000)) return false;
        if (dirname(current) === current) return true;
      }
    });
  } catch {
    return false;
  }
}

function fits(dir: string): boolean {
  return Buffer.byteLength(dir) <= MAX_CONTROL_DIR_BYTES;
}

function uid(): number {
  return typeof process.getuid === "function" ? process.getuid() : 0;
}
