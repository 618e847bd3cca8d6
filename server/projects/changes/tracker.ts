/**
 * What a run changed in its project folder. Started before the agent runs, finished after it:
 * - in a git work tree, git's own view: `git status` before and after (index + work tree, .gitignore respected, no
 *   file-count cap). A file clean before the run had its index content then; a file already dirty has its content
 *   kept at the start, so the diff shows only what the run did;
 * - elsewhere, a bounded walk of the folder, keeping the content of small files so a diff exists even without git.
 * od's own folders in a project (`.od/`, `.od-skills/`) are never reported. Nothing here throws at the caller: a git
 * that fails falls back to the walk, an unreadable file becomes a change without a diff.
 */
import { lstatSync, readFileSync, readlinkSync, realpathSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import type { FileChange } from "../../contracts/changes.ts";
import { runProbe, type ProbeRunner } from "../../runtimes/probe.ts";
import { snapshotFiles, type FileStamp } from "../../machines/folder-snapshot.ts";
import { LoopShare, nextTurn } from "../../next-turn.ts";
import { parsePorcelainZ } from "./git-status.ts";
import { contentOf, describeChange, type Content } from "./unified-diff.ts";

/** A file larger than this is compared by stamp only (no content kept, no diff). */
export const MAX_KEPT_FILE_BYTES = 1024 * 1024;
/** Content kept at the start of a run, over all its files (a live run holds it until it ends). */
export const MAX_KEPT_TOTAL_BYTES = 8 * 1024 * 1024;
const GIT_TIMEOUT_MS = 30_000;
/** The most files a walk lists (and so the most a change-tracked folder outside git can report). */
export const MAX_WALK_FILES = 5000;
const OD_OWN_DIRS = [".od/", ".od-skills/"];

export type ChangeSource = "git" | "walk";

export interface ChangeTracker {
  readonly source: ChangeSource;
  /** Settles once what it keeps of the folder as it was before the run is kept (a walk reads it while the agent starts). */
  readonly kept?: Promise<unknown>;
  /** The changes since the tracker started, sorted by path. */
  finish(): Promise<FileChange[]>;
}

export type TrackOptions = { git?: ProbeRunner; env?: Record<string, string | undefined> };

export async function trackChanges(projectDir: string, options: TrackOptions = {}): Promise<ChangeTracker> {
  const git = options.git ?? runProbe;
  // `git status` refreshes the index's file stamps and writes it back when it can, holding `.git/index.lock` while it
  // does: a commit the agent or the user makes at that moment fails ("index.lock: File exists"). Looking must not
  // write, as git says of tools that only look (git's own env var, from 2.15; an older git ignores it).
  const env: Record<string, string | undefined> = { ...(options.env ?? process.env), GIT_OPTIONAL_LOCKS: "0" };
  // Only ask git when a `.git` is in sight: a spawn costs a run tens of milliseconds on a busy machine. The folder
  // holding it is the work tree's top, so the project's place in it needs no `git rev-parse` of its own before the
  // agent starts; only when GIT_DIR or GIT_WORK_TREE say otherwise does git answer that too.
  const top = gitTopAbove(projectDir);
  const inGit = top === undefined ? undefined : env.GIT_DIR || env.GIT_WORK_TREE ? await gitPrefix(projectDir, git, env) : prefixUnder(top.root, top.dir);
  if (inGit !== undefined) {
    // A folder that is not a work tree after all (inside `.git`, a bare repository) fails here and is walked.
    const before = await gitDirty(projectDir, git, env, inGit);
    if (before) return gitTracker(projectDir, git, env, inGit, before);
  }
  return walkTracker(projectDir);
}

/**
 * The nearest folder at or above `dir` that holds a `.git` (a repository, or a worktree's or submodule's `.git`
 * file), from `dir` with its symlinks resolved as git resolves them; undefined when there is none. A few stat calls,
 * made synchronously like the walk (file-snapshot.ts).
 */
function gitTopAbove(dir: string): { root: string; dir: string } | undefined {
  const real = realPathOr(dir);
  for (let current = real; ; current = dirname(current)) {
    if (holdsGit(current)) return { root: current, dir: real };
    if (dirname(current) === current) return undefined;
  }
}

/**
 * Whether `folder`'s `.git` is one git would stop at: a `.git` file (a worktree's or submodule's link), or a `.git`
 * folder with a `HEAD`. An empty `.git` folder (a sandbox's mount point, a tool's leftover) is no repository: git
 * looks past it to the folders above, and so does this.
 */
function holdsGit(folder: string): boolean {
  const dotGit = join(folder, ".git");
  try {
    return !lstatSync(dotGit).isDirectory() || exists(join(dotGit, "HEAD"));
  } catch {
    return false;
  }
}

function realPathOr(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return resolve(dir);
  }
}

/** `dir`'s path under the work tree's top as `git rev-parse --show-prefix` prints it: `""`, or `"a/b/"`. */
function prefixUnder(root: string, dir: string): string {
  const path = relative(root, dir);
  return path ? `${path.split(sep).join("/")}/` : "";
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The project's path inside its git work tree (`""` at the top), or undefined when it is not in one. */
async function gitPrefix(dir: string, git: ProbeRunner, env: Record<string, string | undefined>): Promise<string | undefined> {
  const result = await git(["git", "-C", dir, "rev-parse", "--is-inside-work-tree", "--show-prefix"], { timeoutMs: GIT_TIMEOUT_MS, env });
  if (result.kind !== "exited" || result.code !== 0) return undefined;
  const [inside, prefix = ""] = result.stdout.split("\n");
  return inside === "true" ? prefix : undefined;
}

/** Project-relative paths git sees as changed (vs the index, or untracked), or undefined when git failed. */
async function gitDirty(dir: string, git: ProbeRunner, env: Record<string, string | undefined>, prefix: string): Promise<Set<string> | undefined> {
  const result = await git(["git", "-C", dir, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames", "--", "."], {
    timeoutMs: GIT_TIMEOUT_MS,
    env,
    maxBytes: 64 * 1024 * 1024,
  });
  if (result.kind !== "exited" || result.code !== 0 || result.truncated) return undefined;
  const paths = new Set<string>();
  for (const entry of parsePorcelainZ(result.stdout)) {
    if (!entry.path.startsWith(prefix)) continue;
    const path = entry.path.slice(prefix.length);
    if (!isOdOwn(path)) paths.add(path);
  }
  return paths;
}

async function gitTracker(dir: string, git: ProbeRunner, env: Record<string, string | undefined>, prefix: string, dirtyBefore: Set<string>): Promise<ChangeTracker> {
  // The files already changed before the run keep their content then, read while the agent starts, as the walk's is
  // (500 untracked files held every run back ~12 ms); a dirty file missing then was absent.
  const stamps = new Map<string, FileStamp>();
  const unstamped = new Map<string, Content>();
  for (const path of dirtyBefore) {
    try {
      const stat = lstatSync(join(dir, path));
      stamps.set(path, { size: stat.size, mtimeMs: stat.mtimeMs });
    } catch (error) {
      unstamped.set(path, { kind: (error as NodeJS.ErrnoException).code === "ENOENT" ? "absent" : "unknown" });
    }
  }
  const kept = keptContents(dir, stamps);
  return {
    source: "git",
    kept,
    async finish() {
      const before = new Map([...unstamped, ...(await kept)]);
      const dirtyAfter = (await gitDirty(dir, git, env, prefix)) ?? new Set<string>();
      const changes: FileChange[] = [];
      for (const path of [...new Set([...dirtyBefore, ...dirtyAfter])].sort()) {
        // Dirty before the run and as it was then (its stamp), as the walk judges files: not changed by the run.
        const stamp = stamps.get(path);
        if (stamp && sameStamp(stamp, stampOf(join(dir, path)))) continue;
        // Clean before the run: its content then was the index's.
        const old = before.get(path) ?? (await indexContent(dir, path, git, env));
        const change = describeChange(path, old, await readContent(join(dir, path)));
        if (change) changes.push(change);
      }
      return changes;
    },
  };
}

async function indexContent(dir: string, path: string, git: ProbeRunner, env: Record<string, string | undefined>): Promise<Content> {
  const result = await git(["git", "-C", dir, "cat-file", "-p", `:./${path}`], { timeoutMs: GIT_TIMEOUT_MS, env, maxBytes: MAX_KEPT_FILE_BYTES + 1 });
  if (result.kind !== "exited" || result.code !== 0) return { kind: "absent" };
  if (result.truncated) return { kind: "unknown" };
  return result.stdout.includes("\0") ? { kind: "binary" } : { kind: "text", text: result.stdout };
}

async function walkTracker(dir: string): Promise<ChangeTracker> {
  const before = snapshotFiles(dir, { maxFiles: MAX_WALK_FILES });
  // The files' content is read while the agent starts, not before it: in a folder of 3,000 small files that held
  // every run back ~100 ms. Each is kept only as it was before the run (keptContents).
  const kept = keptContents(dir, before);
  return {
    source: "walk",
    kept,
    async finish() {
      const contents = await kept;
      const after = snapshotFiles(dir, { maxFiles: MAX_WALK_FILES });
      const changes: FileChange[] = [];
      const paths = [...new Set([...before.keys(), ...after.keys()])].filter((path) => !isOdOwn(path)).sort();
      for (const path of paths) {
        const was = before.get(path);
        const now = after.get(path);
        if (was && now && sameStamp(was, now)) continue;
        const old: Content = was ? (contents.get(path) ?? { kind: "unknown" }) : { kind: "absent" };
        const change = describeChange(path, old, now ? await readContent(join(dir, path)) : { kind: "absent" });
        if (change) changes.push(change);
      }
      return changes;
    },
  };
}

/** How long the walk's content reading holds the event loop at a time (the run's own events go on in between). */
const KEEPING_SHARE_MS = 2;

/**
 * The content of the small files of `before`, newest first (the ones an agent is most likely to touch keep theirs when
 * the budget runs out), each only while the file still has its stamp from before the run, checked before and after it
 * is read: a file the agent changed first keeps no content, and its change shows without a diff, never a wrong one.
 * Read synchronously (a third of the time awaiting each file took) in shares of the event loop, from its next turn on.
 */
async function keptContents(dir: string, before: Map<string, FileStamp>): Promise<Map<string, Content>> {
  const share = new LoopShare(KEEPING_SHARE_MS);
  const budget = new ContentBudget();
  const contents = new Map<string, Content>();
  await nextTurn();
  for (const [path, stamp] of [...before].sort((a, b) => b[1].mtimeMs - a[1].mtimeMs)) {
    if (isOdOwn(path)) continue;
    if (stamp.size > MAX_KEPT_FILE_BYTES) {
      contents.set(path, { kind: "unknown" });
      continue;
    }
    await share.take();
    contents.set(path, budget.keep(() => contentAsStamped(join(dir, path), stamp)));
  }
  return contents;
}

/**
 * A file's content (a symlink's: where it points) while it has `stamp` (checked before and after it is read); unknown
 * once it has not, or when it is neither.
 */
function contentAsStamped(path: string, stamp: FileStamp): Content {
  try {
    const stat = lstatSync(path);
    if (!sameStamp(stamp, stat) || stat.size > MAX_KEPT_FILE_BYTES) return { kind: "unknown" };
    let content: Content;
    if (stat.isSymbolicLink()) content = { kind: "text", text: readlinkSync(path) };
    else if (stat.isFile()) content = contentOf(readFileSync(path));
    else return { kind: "unknown" };
    return sameStamp(stamp, lstatSync(path)) ? content : { kind: "unknown" };
  } catch {
    // Gone or unreadable since its stamp was taken: what it held then is not known (never "absent": it existed).
    return { kind: "unknown" };
  }
}

/** Reads files' content while the run-wide budget lasts; past it (or past the per-file limit), content is unknown. */
class ContentBudget {
  #left = MAX_KEPT_TOTAL_BYTES;

  keep(read: () => Content): Content {
    if (this.#left <= 0) return { kind: "unknown" };
    const content = read();
    if (content.kind === "text") this.#left -= content.text.length;
    return content;
  }
}

/**
 * A file's content now: its text, binary, absent; unknown when it is not a regular file or symlink, or too large.
 * node:fs/promises is fetched here, not imported: a run whose folder needs no content read before the agent starts (a
 * git work tree with nothing dirty, an empty folder) then does not load it, ~1–2 ms of `od run`'s start.
 */
async function readContent(path: string): Promise<Content> {
  const { lstat, readFile, readlink } = process.getBuiltinModule("node:fs/promises");
  try {
    const stat = await lstat(path);
    if (stat.isSymbolicLink()) return { kind: "text", text: await readlink(path) };
    if (!stat.isFile()) return { kind: "unknown" };
    if (stat.size > MAX_KEPT_FILE_BYTES) return { kind: "unknown" };
    return contentOf(await readFile(path));
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? { kind: "absent" } : { kind: "unknown" };
  }
}

function sameStamp(a: FileStamp, b: FileStamp | undefined): boolean {
  return a.size === b?.size && a.mtimeMs === b.mtimeMs;
}

/** A path's stamp now, not following a symlink; undefined when it cannot be had. */
function stampOf(path: string): FileStamp | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** True for paths in od's own folders of a project (`.od/`, `.od-skills/`): never reported as a run's changes. */
export function isOdOwn(path: string): boolean {
  return OD_OWN_DIRS.some((dir) => path.startsWith(dir));
}
