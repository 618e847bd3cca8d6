/** What is in a project folder (bounded walk), to tell which files a run created or changed. */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { toProjectRelative } from "./folder-paths.ts";

/** Folders never walked: tool state, dependencies, staged skills. */
export const HIDDEN_DIRS = new Set([".git", "node_modules", ".od", ".od-skills", ".pi", ".venv", "__pycache__", ".next"]);

export type FileStamp = { size: number; mtimeMs: number };

export function snapshotFiles(root: string, options: { maxFiles?: number; maxDepth?: number } = {}): Map<string, FileStamp> {
  const maxFiles = options.maxFiles ?? 5000;
  const maxDepth = options.maxDepth ?? 8;
  const files = new Map<string, FileStamp>();
  const walk = (dir: string, depth: number) => {
    if (depth > maxDepth || files.size >= maxFiles) return;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (files.size >= maxFiles) return;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!HIDDEN_DIRS.has(entry.name)) walk(full, depth + 1);
      } else if (entry.isFile()) {
        const stat = statSync(full, { throwIfNoEntry: false });
        if (stat) files.set(toProjectRelative(root, full), { size: stat.size, mtimeMs: stat.mtimeMs });
      }
    }
  };
  walk(root, 0);
  return files;
}

/** Files new in `after` or changed since `before`. */
export function changedFiles(before: Map<string, FileStamp>, after: Map<string, FileStamp>): string[] {
  const changed: string[] = [];
  for (const [path, stamp] of after) {
    const old = before.get(path);
    if (!old || old.size !== stamp.size || old.mtimeMs !== stamp.mtimeMs) changed.push(path);
  }
  return changed.sort();
}
