/**
 * A real, dereferenced copy of a folder: symlinks are followed and their targets copied, so nothing in the copy
 * points back at the source. The fast path is `fs.cp`; when the filesystem refuses it (cross-device, no reflink or
 * permission quirks: EPERM, EXDEV, ENOTSUP, EOPNOTSUPP) a plain recursive stream copy takes over.
 */
import { createReadStream, createWriteStream } from "node:fs";
import { join } from "node:path";

/** Copies `source` (a folder) to `target` (which must not exist). */
export type TreeCopier = (source: string, target: string) => Promise<void>;

/** Error codes after which the stream copy is tried instead. */
export const RECOVERABLE_COPY_CODES = new Set(["EPERM", "EXDEV", "ENOTSUP", "EOPNOTSUPP"]);

/**
 * `fs.cp` with dereferencing and preserved timestamps. node:fs/promises is fetched where it is used, here and below:
 * imported, it (and the node:events it brings) cost every `od run` ~2 ms of its start, skills or not.
 */
export const nodeCopyTree: TreeCopier = (source, target) =>
  process.getBuiltinModule("node:fs/promises").cp(source, target, { recursive: true, dereference: true, preserveTimestamps: true, errorOnExist: true, force: false });

/** Copies with `primary`, falling back to the stream copy on a recoverable error. Returns which path was used. */
export async function copyTreeDereferenced(source: string, target: string, primary: TreeCopier = nodeCopyTree): Promise<"primary" | "stream"> {
  try {
    await primary(source, target);
    return "primary";
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (!code || !RECOVERABLE_COPY_CODES.has(code)) throw error;
  }
  await streamCopyTree(source, target);
  return "stream";
}

/** The fallback: walk, follow links (each real folder once, so a link cycle cannot loop), copy bytes by stream. */
export async function streamCopyTree(source: string, target: string, visited = new Set<string>()): Promise<void> {
  const { mkdir, readdir, realpath, stat, utimes } = process.getBuiltinModule("node:fs/promises");
  const real = await realpath(source);
  if (visited.has(real)) return;
  visited.add(real);
  await mkdir(target, { recursive: true });
  // Loaded here, on the fallback's path only: node:stream is ~2 ms of every `od run`'s start-up otherwise.
  const { pipeline } = await import("node:stream/promises");
  for (const name of await readdir(source)) {
    const from = join(source, name);
    const to = join(target, name);
    const info = await stat(from).catch(() => undefined); // a dangling link is skipped
    if (!info) continue;
    if (info.isDirectory()) await streamCopyTree(from, to, visited);
    else if (info.isFile()) {
      await pipeline(createReadStream(from), createWriteStream(to, { flags: "wx", mode: info.mode & 0o777 }));
      await utimes(to, info.atime, info.mtime);
    }
  }
}
