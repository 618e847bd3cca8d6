/**
 * pi's session handle: the single `.jsonl` in its session dir that appeared or changed during the run.
 * `changedSessionFile` is a pure comparison of two snapshots; `snapshotSessionDir` reads one (missing dir → empty).
 */
import { LocalMachine } from "../../../machines/local-machine.ts";
import type { Machine } from "../../../machines/machine.ts";

/** One file's identity for change detection. */
export type SessionFileStat = { name: string; mtimeMs: number; size: number };

/**
 * The `.jsonl` files of a session dir (recursively one level: pi nests per-cwd folders), read on the machine pi runs
 * on: in a container or on a host, the folder is there, not here.
 */
export async function snapshotSessionDir(dir: string, machine: Pick<Machine, "listTree"> = new LocalMachine()): Promise<SessionFileStat[]> {
  const files = await machine.listTree(dir, { depth: 2, suffix: ".jsonl" });
  return files.map((file) => ({ name: file.path, mtimeMs: file.mtimeMs, size: file.size }));
}

/** The one file that is new or whose mtime/size changed; null when none or ambiguous. */
export function changedSessionFile(before: SessionFileStat[], after: SessionFileStat[]): string | null {
  const previous = new Map(before.map((file) => [file.name, file]));
  const changed = after.filter((file) => {
    const old = previous.get(file.name);
    return !old || old.mtimeMs !== file.mtimeMs || old.size !== file.size;
  });
  return changed.length === 1 ? (changed[0]?.name ?? null) : null;
}
