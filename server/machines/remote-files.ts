/**
 * A remote project's files: the file list (a bounded `find`, the same folders skipped as locally), one file's bytes
 * (`cat` of a regular file that resolves inside the project, at most a size cap), and one file written (atomically,
 * 0600), each one command over ssh or docker exec. Paths are arguments of fixed scripts, never script text.
 */
import { OdError } from "../errors.ts";
import { fileNotFound, fileTooLarge } from "./file-errors.ts";
import type { FileStamp } from "./folder-snapshot.ts";
import { describeLocation, type RemoteLocation } from "./machine-url.ts";
import { expectExited, runRemoteScript, type RemoteContext } from "./remote-exec.ts";
import { staysInside } from "./folder-paths.ts";
import { GNU_TOOLS_CHECK, GNU_TOOLS_MISSING_EXIT, gnuToolsMissingText, HIDDEN_DIRS_FIND_TEST } from "./remote-scripts.ts";

const TIMEOUT_MS = 30_000;
/**
 * `size` of the file `$real`: the fifth field of `ls -ln`, split by the shell itself (globbing off). Not awk: a
 * container that shares the host's /usr but not its /etc has `awk` only as a dangling /etc/alternatives link.
 */
const SIZE_OF_REAL = 'set -f; set -- $(ls -ln "$real" 2>/dev/null); size=$5';
/** `$1` folder, `$2` most files: `size mtime path` NUL-terminated records. Exit 3: no such folder; 6: no GNU tools. */
const LIST_SCRIPT = `cd -- "$1" 2>/dev/null || exit 3
${GNU_TOOLS_CHECK}
find . -maxdepth 9 \\( -type d \\( ${HIDDEN_DIRS_FIND_TEST} \\) -prune \\) -o -type f -printf '%s %T@ %P\\0' 2>/dev/null | head -z -n "$2"
exit 0`;
/**
 * `$1` folder, `$2` project-relative path, `$3` most bytes. Exit 4: not a regular file inside the folder (after
 * symlinks); 5: larger than `$3`; otherwise its bytes. Only tools every system has (GNU, busybox, BSD): `realpath`
 * without options (the path made `./…`, so it never reads as one), the size from `ls -ln` (SIZE_OF_REAL).
 */
const READ_SCRIPT = `cd -- "$1" 2>/dev/null || exit 4
max=$3
root=$(pwd -P)
real=$(realpath "./$2" 2>/dev/null) || exit 4
case "$real" in "$root"/*) ;; *) exit 4 ;; esac
[ -f "$real" ] || exit 4
${SIZE_OF_REAL}
[ -n "$size" ] && [ "$size" -le "$max" ] || exit 5
exec cat "$real"`;

/** Parse LIST_SCRIPT's records. Bad records are skipped. */
export function parseFileList(output: string): Map<string, FileStamp> {
  const files = new Map<string, FileStamp>();
  for (const record of output.split("\0")) {
    const match = /^(\d+) (\d+(?:\.\d+)?) (.+)$/s.exec(record);
    if (match) files.set(match[3]!, { size: Number(match[1]), mtimeMs: Math.round(Number(match[2]) * 1000) });
  }
  return files;
}

export async function listRemoteFiles(location: RemoteLocation, context: RemoteContext, maxFiles: number): Promise<Map<string, FileStamp>> {
  const result = await runRemoteScript(location, LIST_SCRIPT, [location.path, String(maxFiles)], context, { timeoutMs: TIMEOUT_MS, maxBytes: 16 * 1024 * 1024 });
  const output = expectExited(location, result);
  if (output.code === 3) throw new OdError("not_found", "INVALID_PROJECT_PATH", `the project folder is missing on ${describeLocation(location)}`);
  if (output.code === GNU_TOOLS_MISSING_EXIT) throw new OdError("machine_failed", "REMOTE_TOOLS_MISSING", gnuToolsMissingText("the files panel", describeLocation(location)));
  return parseFileList(new TextDecoder().decode(output.stdout));
}

export async function readRemoteFile(location: RemoteLocation, context: RemoteContext, relPath: string, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const missing = () => fileNotFound(relPath);
  if (!staysInside(relPath)) throw missing();
  const result = await runRemoteScript(location, READ_SCRIPT, [location.path, relPath, String(maxBytes)], context, { timeoutMs: TIMEOUT_MS, maxBytes: maxBytes + 1 });
  const output = expectExited(location, result);
  if (output.code === 5) throw fileTooLarge(relPath, maxBytes);
  if (output.code !== 0) throw missing();
  return new Uint8Array(output.stdout);
}

/** `$1` folder, `$2` relative file: stdin replaces it, atomically, 0600. Exit 3: no such folder; 4: could not write. */
const WRITE_SCRIPT = `cd -- "$1" 2>/dev/null || exit 3
umask 077
mkdir -p -- "$(dirname -- "$2")" || exit 4
tmp="$2.$$.tmp"
cat > "$tmp" && mv -f -- "$tmp" "$2" || { rm -f -- "$tmp"; exit 4; }`;

export async function writeRemoteFile(location: RemoteLocation, context: RemoteContext, relPath: string, bytes: Uint8Array): Promise<void> {
  if (!staysInside(relPath)) throw fileNotFound(relPath);
  const result = expectExited(location, await runRemoteScript(location, WRITE_SCRIPT, [location.path, relPath], context, { timeoutMs: TIMEOUT_MS, stdin: bytes }));
  const where = describeLocation(location);
  if (result.code === 3) throw new OdError("not_found", "INVALID_PROJECT_PATH", `the project folder is missing on ${where}`);
  if (result.code !== 0) throw new OdError("machine_failed", "REMOTE_WRITE_FAILED", `could not write ${relPath} on ${where}: ${result.stderr.trim() || `exit ${result.code}`}`);
}
