/**
 * pi's session handle: the single `.jsonl` in its session dir that appeared or changed during the run.
 * `changedSessionFile` is a pure comparison of two snapshots; `snapshotSessionDir` reads one (missing dir → empty).
 */
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";

/** One file's identity for change detection. */
export type SessionFileStat = { name: string; mtimeMs: number; size: number };

/** The `.jsonl` files of a session dir (recursively one level: pi nests per-cwd folders). */
export async function snapshotSessionDir(dir: string): Promise<SessionFileStat[]> {
  const out: SessionFileStat[] = [];
  const visit = async (folder: string, prefix: string, depth: number) => {
    let entries;
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const name = prefix === "" ? entry.name : join(prefix, entry.name);
      if (entry.isDirectory() && depth < 2) await visit(join(folder, entry.name), name, depth + 1);
      else if (entry.isFile() && entry.name.endsWith(".jsonl")) {
        try {
          const info = await stat(join(folder, entry.name));
          out.push({ name, mtimeMs: info.mtimeMs, size: info.size });
        } catch {
          // Vanished between readdir and stat.
        }
      }
    }
  };
  await visit(dir, "", 0);
  return out;
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
