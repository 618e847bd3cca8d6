/**
 * Reading the sections the change-snapshot scripts print (remote-change-scripts.ts) into what the change tracker
 * compares: paths git reports, a walk's stamps, file contents (from `contents`' stat records and tar stream) and
 * index contents (from `ls-files -s` and `cat-file --batch`). Pure.
 */
import { MAX_KEPT_FILE_BYTES } from "../projects/changes/tracker.ts";
import { contentOf, type Content } from "../projects/changes/unified-diff.ts";
import { parsePorcelainZ } from "../projects/changes/git-status.ts";
import { nulRecords } from "../machines/framed-sections.ts";
import { readTarEntries } from "../machines/tar-entries.ts";

/** `./a/b` (as find and tar print paths) → `a/b`. */
function plain(path: string): string {
  return path.startsWith("./") ? path.slice(2) : path;
}

/**
 * Content of each path `contents` saw, by path relative to where it ran: its text or binary when it was kept and
 * arrived whole, unknown when it is too large, not a file, or past the budget. Paths it did not see are absent.
 */
export function readContents(stat: Uint8Array, tar: Uint8Array): Map<string, Content> {
  const entries = readTarEntries(tar);
  const contents = new Map<string, Content>();
  for (const record of nulRecords(stat)) {
    const match = /^([ku]). \d+ (.+)$/s.exec(record);
    if (!match) continue;
    const path = match[2]!;
    const entry = match[1] === "k" ? entries.get(path) : undefined;
    let content: Content = { kind: "unknown" };
    if (entry?.kind === "symlink") content = { kind: "text", text: entry.target };
    else if (entry?.kind === "file" && entry.bytes.length <= MAX_KEPT_FILE_BYTES) content = contentOf(entry.bytes);
    contents.set(plain(path), content);
  }
  return contents;
}

/** Project-relative paths of a `git status -z` section run in the project (`prefix`: its place in the work tree). */
export function statusPaths(status: Uint8Array, prefix: string): Set<string> {
  const paths = new Set<string>();
  for (const entry of parsePorcelainZ(new TextDecoder().decode(status))) {
    if (entry.path.startsWith(prefix)) paths.add(entry.path.slice(prefix.length));
  }
  return paths;
}

/** A walk's listing: path → its stamp as printed (`size mtime`), compared as text. */
export function listingStamps(list: Uint8Array): Map<string, string> {
  const stamps = new Map<string, string>();
  for (const record of nulRecords(list)) {
    const match = /^(\d+ \d+(?:\.\d+)?) (.+)$/s.exec(record);
    if (match) stamps.set(match[2]!, match[1]!);
  }
  return stamps;
}

/**
 * The index content of each path `ls-files -s` listed (work-tree-relative), as the local tracker reads it with
 * `git cat-file -p`: binary when it holds a NUL, unknown when its blob did not come (too large, past the budget).
 * A submodule's entry reads as absent, as `cat-file` fails on it locally.
 */
export function readIndexContents(index: Uint8Array, blobs: Uint8Array): Map<string, Content> {
  const blobsById = readBatch(blobs);
  const contents = new Map<string, Content>();
  for (const record of nulRecords(index)) {
    const match = /^(\d+) ([0-9a-f]+) 0\t(.+)$/s.exec(record);
    if (!match) continue;
    const [, mode, oid, path] = match;
    const blob = blobsById.get(oid!);
    if (mode === "160000") contents.set(path!, { kind: "absent" });
    else if (!blob) contents.set(path!, { kind: "unknown" });
    else contents.set(path!, blob.includes(0) ? { kind: "binary" } : { kind: "text", text: new TextDecoder().decode(blob) });
  }
  return contents;
}

/** `git cat-file --batch` output (`<oid> <type> <size>\n<bytes>\n` each), cut anywhere: the whole objects. */
export function readBatch(output: Uint8Array): Map<string, Uint8Array> {
  const objects = new Map<string, Uint8Array>();
  let offset = 0;
  while (offset < output.length) {
    const newline = output.indexOf(0x0a, offset);
    if (newline < 0) break;
    const match = /^([0-9a-f]+) \S+ (\d+)$/.exec(new TextDecoder().decode(output.subarray(offset, newline)));
    if (!match) break;
    const end = newline + 1 + Number(match[2]);
    if (end + 1 > output.length) break;
    objects.set(match[1]!, output.subarray(newline + 1, end));
    offset = end + 1;
  }
  return objects;
}
