/**
 * git worktrees on a project's machine, one script each (worktree-scripts.ts): make one for a run, read what it
 * changed against its base, apply that to the checkout, remove it, measure them. The same code for this machine, an
 * ssh host and a container: each asks the machine to run its script. Failures are OdErrors naming the machine.
 */
import type { FileChange } from "../contracts/changes.ts";
import type { ApplyMode } from "../contracts/worktrees.ts";
import { OdError } from "../errors.ts";
import { nulRecords, readSections } from "../machines/framed-sections.ts";
import type { ExecResult, Machine } from "../machines/machine.ts";
import { GNU_TOOLS_MISSING_EXIT } from "../machines/remote-scripts.ts";
import { MAX_KEPT_FILE_BYTES, MAX_KEPT_TOTAL_BYTES, type ChangeTracker } from "../projects/changes/tracker.ts";
import { describeChange, type Content } from "../projects/changes/unified-diff.ts";
import { readBatch } from "../remote/remote-snapshot.ts";
import {
  APPLY_WORKTREE_SCRIPT,
  CREATE_WORKTREE_SCRIPT,
  PRUNE_WORKTREES_SCRIPT,
  REMOVE_WORKTREE_SCRIPT,
  WORKTREE_CHANGES_SCRIPT,
  WORKTREE_SIZES_SCRIPT,
} from "./worktree-scripts.ts";

const TIMEOUT_MS = 120_000;
const MAX_OUTPUT = 64 * 1024 * 1024;
/** The blobs one read of a worktree's changes brings back (both sides of every changed file). */
const BLOB_BUDGET = 4 * MAX_KEPT_TOTAL_BYTES;

/** Where a worktree is and what it started from: what reading and applying it need. */
export type WorktreeGitPlace = {
  /** The worktree's top folder on the machine. */
  folder: string;
  base: string;
  branch: string;
  /** The project's folder inside the repository (`""` at its top, else ending in `/`). */
  prefix: string;
};

export type NewWorktree = WorktreeGitPlace & { head: string; carriedPaths: number };

/** A conflict that left the checkout as it was, naming the paths git named. */
function applyConflict(message: string, paths: string[]): OdError {
  return new OdError("conflict", "APPLY_CONFLICT", message, undefined, paths);
}

/**
 * Makes a worktree of the repository holding `projectFolder`: branch `branch` from `base`, or from the checkout as
 * it is (its uncommitted changes carried over) when no base is given. `root` empty: `~/.od/worktrees` there.
 */
export async function createWorktree(
  machine: Machine,
  options: { projectFolder: string; root: string; name: string; branch: string; base?: string },
): Promise<NewWorktree> {
  const { projectFolder, root, name, branch, base = "" } = options;
  const result = await machine.exec(CREATE_WORKTREE_SCRIPT, [projectFolder, root, name, branch, base], { timeoutMs: TIMEOUT_MS, maxBytes: 1024 * 1024 });
  if (result.kind === "exited" && result.code === 0) {
    const [folder, madeFrom, head, carried, prefix] = nulRecords(result.stdout);
    if (folder?.startsWith("/") && madeFrom && head && carried !== undefined && prefix !== undefined) {
      return { folder, base: madeFrom, head, carriedPaths: Number(carried), branch, prefix };
    }
  }
  const where = machine.label;
  if (result.kind === "exited") {
    if (result.code === 8) throw new OdError("invalid", "NOT_A_GIT_REPOSITORY", `the project's folder on ${where} is not in a git repository: a run in a worktree needs one (run \`git init\` and commit once, or run it without isolation)`);
    if (result.code === 7) throw new OdError("invalid", "NOT_A_GIT_REPOSITORY", `git is not installed on ${where}: a run in a worktree needs it`);
    if (result.code === 9) throw new OdError("invalid", "NOT_A_GIT_REPOSITORY", `the project's repository on ${where} has no commit yet: commit once, then a worktree can branch from it`);
    if (result.code === 13) throw new OdError("invalid", "INVALID_PROJECT_PATH", `the project's folder is gone on ${where}`);
  }
  throw machineFailure(result, where, "could not make the run's worktree");
}

/** Reads what the worktree holds against its base now: the project's files, as the change tracker reports them. */
export async function worktreeChanges(machine: Machine, place: WorktreeGitPlace): Promise<FileChange[]> {
  const result = await machine.exec(WORKTREE_CHANGES_SCRIPT, [place.folder, place.base, place.prefix, String(MAX_KEPT_FILE_BYTES + 1), String(BLOB_BUDGET)], {
    timeoutMs: TIMEOUT_MS,
    maxBytes: MAX_OUTPUT + BLOB_BUDGET,
  });
  const sections = result.kind === "exited" && result.code === 0 ? readSections(result.stdout) : undefined;
  if (!sections || sections.length !== 3) {
    if (result.kind === "exited" && result.code === 3) throw new OdError("conflict", "WORKTREE_GONE", `the run's worktree ${place.folder} is gone on ${machine.label}`);
    throw machineFailure(result, machine.label, "could not read the worktree's changes");
  }
  return changesFromDiff(sections[1]!, sections[2]!, place.prefix);
}

/** One raw diff record's sides, as `git diff-tree --raw -z` prints them. */
type RawEntry = { oldMode: string; newMode: string; oldOid: string; newOid: string; path: string };

/** The changes a `--raw -z` diff and the blobs of its sides describe, project-relative and sorted. Pure. */
export function changesFromDiff(raw: Uint8Array, blobs: Uint8Array, prefix: string): FileChange[] {
  const byOid = readBatch(blobs);
  const content = (mode: string, oid: string): Content => {
    if (/^0+$/.test(oid)) return { kind: "absent" };
    if (mode === "160000") return { kind: "unknown" };
    const bytes = byOid.get(oid);
    if (!bytes) return { kind: "unknown" };
    return bytes.includes(0) ? { kind: "binary" } : { kind: "text", text: new TextDecoder().decode(bytes) };
  };
  const changes: FileChange[] = [];
  for (const entry of rawEntries(raw)) {
    const path = entry.path.startsWith(prefix) ? entry.path.slice(prefix.length) : entry.path;
    const change = describeChange(path, content(entry.oldMode, entry.oldOid), content(entry.newMode, entry.newOid));
    if (change) changes.push(change);
  }
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function rawEntries(raw: Uint8Array): RawEntry[] {
  const records = nulRecords(raw);
  const entries: RawEntry[] = [];
  for (let i = 0; i + 1 < records.length; i += 2) {
    const match = /^:(\d+) (\d+) ([0-9a-f]+) ([0-9a-f]+) \S+$/.exec(records[i]!);
    if (match) entries.push({ oldMode: match[1]!, newMode: match[2]!, oldOid: match[3]!, newOid: match[4]!, path: records[i + 1]! });
  }
  return entries;
}

/** A change tracker whose `finish` reads the worktree against its base (cumulative over the conversation's runs). */
export function worktreeTracker(machine: Machine, place: WorktreeGitPlace, note: (message: string) => void): ChangeTracker {
  return {
    source: "git",
    async finish() {
      try {
        return await worktreeChanges(machine, place);
      } catch (error) {
        note(`${error instanceof Error ? error.message : String(error)}; this run's changes are not recorded`);
        return [];
      }
    },
  };
}

export type AppliedWorktree = { files: string[]; commit?: string };

/**
 * Brings the worktree's changes into the checkout holding `projectFolder`: all of them, or none (409 `APPLY_CONFLICT`
 * naming the paths, the checkout as it was).
 */
export async function applyWorktree(machine: Machine, projectFolder: string, place: WorktreeGitPlace, mode: ApplyMode, message: string): Promise<AppliedWorktree> {
  const args = [projectFolder, place.folder, place.base, place.prefix, mode, message, place.branch];
  const result = await machine.exec(APPLY_WORKTREE_SCRIPT, args, { timeoutMs: TIMEOUT_MS, maxBytes: MAX_OUTPUT });
  const where = machine.label;
  if (result.kind === "exited") {
    const records = nulRecords(result.stdout);
    const projectPath = (path: string) => (path.startsWith(place.prefix) ? path.slice(place.prefix.length) : path);
    if (result.code === 0) {
      const commit = mode === "uncommitted" ? undefined : records.pop();
      return { files: records.map(projectPath), ...(commit ? { commit } : {}) };
    }
    if (result.code === 12) {
      const [kind = "patch", ...named] = records;
      const paths = [...new Set((named.length ? named : pathsGitNamed(result.stderr)).map(projectPath))].sort();
      throw applyConflict(conflictMessage(kind, mode, paths, result.stderr), paths);
    }
    if (result.code === 11) throw new OdError("conflict", "NOTHING_TO_APPLY", "the run's worktree holds no changes against its base");
    if (result.code === 3) throw new OdError("conflict", "WORKTREE_GONE", `the run's worktree ${place.folder} is gone on ${where}`);
    if (result.code === 13) throw new OdError("invalid", "INVALID_PROJECT_PATH", `the project's folder is gone on ${where}`);
    if (result.code === 14) throw new OdError("conflict", "APPLY_CONFLICT", "the checkout's HEAD moved while applying; nothing was changed: try again");
    if (result.code === 15) throw new OdError("invalid", "GIT_TOO_OLD", `git on ${where} cannot merge without touching the checkout (it needs git 2.38 or later): apply as uncommitted changes or as a commit`);
  }
  throw machineFailure(result, where, "could not apply the worktree's changes");
}

function conflictMessage(kind: string, mode: ApplyMode, paths: string[], stderr: string): string {
  const named = paths.length ? `: ${paths.slice(0, 10).join(", ")}${paths.length > 10 ? `, and ${paths.length - 10} more` : ""}` : "";
  const unchanged = "; the checkout was left as it was";
  if (kind === "dirty") return `the run changed files that have uncommitted changes in the checkout${named}${unchanged} (commit or stash them, or apply as uncommitted changes)`;
  if (kind === "merge") return `merging the run's branch conflicts with the checkout's branch${named}${unchanged}`;
  if (kind === "overwrite") return `the merge would overwrite uncommitted changes in the checkout${named}${unchanged}`;
  const why = mode === "uncommitted" ? "the checkout's files changed since the run's base" : "the run's changes do not apply to the checkout's HEAD";
  return `${why}${named}${unchanged}${paths.length ? "" : ` (${lastLine(stderr)})`}`;
}

/** The paths git's `apply` and `merge` errors name (`error: PATH: patch does not apply`, a tab-indented list). */
export function pathsGitNamed(stderr: string): string[] {
  const paths: string[] = [];
  for (const line of stderr.split("\n")) {
    const apply = /^error: (.+?): (?:patch does not apply|already exists in working directory|does not exist in (?:working directory|index)|does not match index|No such file or directory)$/.exec(line);
    const failed = /^error: patch failed: (.+):\d+$/.exec(line);
    const listed = /^\t(.+)$/.exec(line);
    const path = apply?.[1] ?? failed?.[1] ?? listed?.[1];
    if (path) paths.push(unquote(path));
  }
  return paths;
}

/** git's C-style quoting of an unusual path (`"a\tb"`), undone. */
function unquote(path: string): string {
  if (!path.startsWith('"') || !path.endsWith('"')) return path;
  try {
    return JSON.parse(path.replace(/\\([0-7]{3})/g, (_, octal: string) => `\\u00${parseInt(octal, 8).toString(16).padStart(2, "0")}`));
  } catch {
    return path.slice(1, -1);
  }
}

/**
 * Removes the worktree and its branch. `force`: the person discards it; `keep-unapplied`: a branch holding commits
 * the checkout's HEAD does not is kept (its conversation went, the work need not). Says whether the branch went.
 */
export async function removeWorktree(machine: Machine, projectFolder: string, place: WorktreeGitPlace, how: "force" | "keep-unapplied"): Promise<{ branchDeleted: boolean }> {
  const result = await machine.exec(REMOVE_WORKTREE_SCRIPT, [projectFolder, place.folder, place.branch, place.base, how], { timeoutMs: TIMEOUT_MS, maxBytes: 64 * 1024 });
  if (result.kind === "exited" && result.code === 0) return { branchDeleted: nulRecords(result.stdout)[0] !== "kept" };
  if (result.kind === "exited" && result.code === 13) throw new OdError("invalid", "INVALID_PROJECT_PATH", `the project's folder is gone on ${machine.label}`);
  throw machineFailure(result, machine.label, "could not remove the run's worktree");
}

/** Each folder's size on disk in bytes (null when it is gone), or undefined when the machine did not answer. */
export async function worktreeSizes(machine: Machine, folders: readonly string[]): Promise<(number | null)[] | undefined> {
  if (folders.length === 0) return [];
  const result = await machine.exec(WORKTREE_SIZES_SCRIPT, folders, { timeoutMs: 30_000, maxBytes: 1024 * 1024 });
  if (result.kind !== "exited" || result.code !== 0) return undefined;
  const sizes = nulRecords(result.stdout);
  return folders.map((_, i) => (sizes[i] === undefined || sizes[i] === "-" ? null : Number(sizes[i]) * 1024));
}

/** `git worktree prune` in the checkout: forgets worktrees whose folders are gone. Never throws. */
export async function pruneWorktrees(machine: Machine, projectFolder: string): Promise<boolean> {
  const result = await machine.exec(PRUNE_WORKTREES_SCRIPT, [projectFolder], { timeoutMs: 30_000, maxBytes: 64 * 1024 });
  return result.kind === "exited" && result.code === 0;
}

function machineFailure(result: ExecResult, where: string, what: string): OdError {
  if (result.kind === "timeout") return new OdError("machine_timeout", "REMOTE_TIMEOUT", `${what} on ${where}: no answer within ${TIMEOUT_MS / 1000} s`);
  if (result.kind === "unreachable") return new OdError("machine_failed", "REMOTE_UNREACHABLE", `${what} on ${where}: ${result.stderr.trim() || "unreachable"}`);
  if (result.code === GNU_TOOLS_MISSING_EXIT) return new OdError("machine_failed", "REMOTE_TOOLS_MISSING", `${what} on ${where}: it needs GNU find, sed and coreutils there`);
  return new OdError("machine_failed", "WORKTREE_FAILED", `${what} on ${where}: ${lastLine(result.stderr) || `exit ${result.code}`}`);
}

function lastLine(text: string): string {
  return text.trim().split("\n").at(-1)?.trim() ?? "";
}
