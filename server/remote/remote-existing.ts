/**
 * Which of a run's files exist in a remote project after the run: a tool call naming a path says nothing of whether
 * its write worked (a write under a regular file fails with ENOTDIR), so the run's `files` are checked there, as a
 * local run's are on disk. Paths are arguments of one fixed script, never script text; only POSIX tools (GNU,
 * busybox, BSD alike).
 */
import type { Machine } from "../machines/machine.ts";
import { staysInside } from "../machines/folder-paths.ts";

const TIMEOUT_MS = 30_000;
/** Paths per script run: far below any command line limit of ssh or docker exec. */
const PATHS_PER_RUN = 200;

/**
 * `$1` folder, then project-relative paths: prints each one that exists and resolves inside the folder (after
 * symlinks), NUL-terminated. Exit 3: no such folder.
 */
const EXISTING_SCRIPT = `cd -- "$1" 2>/dev/null || exit 3
root=$(pwd -P)
shift
for p in "$@"; do
  real=$(realpath "./$p" 2>/dev/null) || continue
  case "$real" in "$root"/*) [ -e "$real" ] && printf '%s\\0' "$p" ;; esac
done
exit 0`;

/** The paths of `paths` that exist in `folder` on `machine` now; undefined when that could not be checked there. */
export async function existingRemoteFiles(machine: Machine, folder: string, paths: readonly string[]): Promise<string[] | undefined> {
  const candidates = paths.filter(staysInside);
  const existing: string[] = [];
  for (let start = 0; start < candidates.length; start += PATHS_PER_RUN) {
    const batch = candidates.slice(start, start + PATHS_PER_RUN);
    const result = await machine.exec(EXISTING_SCRIPT, [folder, ...batch], { timeoutMs: TIMEOUT_MS });
    if (result.kind !== "exited" || result.code !== 0) return undefined;
    const named = new Set(batch);
    for (const path of new TextDecoder().decode(result.stdout).split("\0")) if (named.has(path)) existing.push(path);
  }
  return existing;
}
