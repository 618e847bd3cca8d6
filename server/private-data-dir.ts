/**
 * The data dir holds credentials (`agentCliEnv` keys), prompts and transcripts, so only its owner may read it: every
 * folder od makes there is 0700 and every file 0600. A data dir made by an older od, or loosened by someone since, is
 * tightened on start, all the way down, and the caller says so: od's own folders are made private, so whatever is
 * found loose was loosened by someone else.
 *
 * The files inside a project folder (`projects/<name>/…`, a connection test's scratch folder, and an isolated run's
 * git worktree under `worktrees/<project id>/`) are the agent's: it writes them with its own umask, so they would be
 * "loose" after every run, and a big tree (node_modules) would cost every start a walk. The folder around them is
 * tightened, which keeps every other user out of all of it.
 */
import { closeSync, constants, fchmodSync, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, type Dirent } from "node:fs";
import { join } from "node:path";

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Folders (relative to the data dir) whose subfolders hold working folders of agents: tightened, not entered. A
 * project's worktrees folder (`worktrees/<project id>`) is od's, made 0700; the worktrees in it are the agent's.
 */
const AGENT_FOLDER_PARENTS = ["projects", "connection-tests", "worktrees"];

/** How many changed paths the stderr notice names; the rest are counted. */
const NOTICE_PATHS = 10;

/**
 * Creates or tightens `dataDir` and everything in it (never through a symlink); returns one sentence per change made
 * to an existing path, or per path that could not be tightened (empty when none).
 */
export function preparePrivateDataDir(dataDir: string): string[] {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const changes: string[] = [];
  const agentFolderParents = new Set(AGENT_FOLDER_PARENTS.map((name) => join(dataDir, name)));
  // Top down: once a folder is 0700 no other user can reach what is in it, so nothing below can be swapped under us.
  const folders = [dataDir];
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    if (!tighten(folder, "dir", changes)) continue;
    const entersChildren = !agentFolderParents.has(folder);
    for (const entry of listed(folder, changes)) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (entersChildren) folders.push(path);
        else tighten(path, "dir", changes);
      } else if (entry.isFile()) tighten(path, "file", changes);
    }
  }
  return changes;
}

/** The entries of `folder`; none (and a sentence saying why) when it cannot be read, e.g. a folder of mode 000. */
function listed(folder: string, changes: string[]): Dirent[] {
  try {
    return readdirSync(folder, { withFileTypes: true });
  } catch (error) {
    changes.push(`${folder}: could not look inside (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    return [];
  }
}

/**
 * Removes group and other access from `path`, through a descriptor opened without following a symlink (a path
 * swapped for a link since it was listed is left alone). True when it is a folder of that kind to go into.
 * A path already private costs one lstat: most of them are, and every start walks them all.
 */
function tighten(path: string, kind: "dir" | "file", changes: string[]): boolean {
  const seen = lstatSync(path, { throwIfNoEntry: false });
  if (seen && (kind === "dir" ? seen.isDirectory() : seen.isFile()) && (seen.mode & 0o077) === 0) return true;
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | (kind === "dir" ? constants.O_DIRECTORY : 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ELOOP: a symlink now; ENOENT: gone; ENOTDIR: no longer a folder. Nothing of ours to tighten.
    if (code !== "ELOOP" && code !== "ENOENT" && code !== "ENOTDIR") changes.push(`${path}: could not check its permissions (${code ?? String(error)})`);
    return false;
  }
  try {
    const stat = fstatSync(fd);
    if (kind === "dir" ? !stat.isDirectory() : !stat.isFile()) return false;
    const mode = stat.mode & 0o777;
    if ((mode & 0o077) === 0) return true;
    const owner = typeof process.getuid === "function" && stat.uid !== process.getuid() ? ` (owned by uid ${stat.uid})` : "";
    try {
      fchmodSync(fd, mode & 0o700);
      changes.push(`${path}: ${mode.toString(8)} → ${(mode & 0o700).toString(8)}${owner}`);
      return true;
    } catch (error) {
      changes.push(`${path}: ${mode.toString(8)}${owner}, could not be tightened (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
      return false;
    }
  } finally {
    closeSync(fd);
  }
}

/** Creates `path` empty with owner-only permissions unless it exists (sqlite then gives its -wal/-shm the same). */
export function createPrivateFile(path: string): void {
  closeSync(openSync(path, "a", PRIVATE_FILE_MODE));
}

/** The stderr line for changes `preparePrivateDataDir` made: the first few paths, and how many more. */
export function tightenedNotice(changes: string[]): string {
  const named = changes.slice(0, NOTICE_PATHS).join(", ");
  const more = changes.length > NOTICE_PATHS ? ` and ${changes.length - NOTICE_PATHS} more` : "";
  return `od: other users could read od's data; permissions tightened (owner only): ${named}${more}\n`;
}
