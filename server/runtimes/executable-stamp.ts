/**
 * What identifies an agent's executable cheaply (one stat, one realpath): a result probed from it may be reused while
 * the stamp is unchanged, and an upgrade, a re-pointed symlink or another PATH entry makes it differ.
 */
import { realpathSync, statSync } from "node:fs";
import type { ExecutableStamp } from "../contracts/agent-detection.ts";

export type { ExecutableStamp };

/** The stamp of the file at `path` now; undefined when it cannot be read (then nothing is reused). */
export function stampExecutable(path: string): ExecutableStamp | undefined {
  try {
    const stats = statSync(path);
    return { path, realPath: realpathSync(path), size: stats.size, mtimeMs: stats.mtimeMs };
  } catch {
    return undefined;
  }
}

export function sameExecutable(a: ExecutableStamp | undefined, b: ExecutableStamp | undefined): boolean {
  return !!a && !!b && a.path === b.path && a.realPath === b.realPath && a.size === b.size && a.mtimeMs === b.mtimeMs;
}
