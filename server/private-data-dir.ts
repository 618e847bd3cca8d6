/**
 * The data dir holds credentials (`agentCliEnv` keys), prompts and transcripts, so only its owner may read it: the
 * dir is 0700 and the files directly in it 0600. A data dir made by an older od (0755, files 0644) is tightened on
 * start, and the caller says so; project folders inside it keep their own files' modes (the dir around them is
 * what keeps other users out).
 */
import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync } from "node:fs";
import { join } from "node:path";

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates or tightens `dataDir`; returns one sentence per change made to an existing path (empty when none). */
export function preparePrivateDataDir(dataDir: string): string[] {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const changes: string[] = [];
  const tighten = (path: string, mode: number) => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink() || (stat.mode & 0o077) === 0) return;
    chmodSync(path, mode);
    changes.push(`${path}: ${(stat.mode & 0o777).toString(8)} → ${mode.toString(8)}`);
  };
  tighten(dataDir, PRIVATE_DIR_MODE);
  for (const entry of readdirSync(dataDir, { withFileTypes: true })) {
    if (entry.isDirectory()) tighten(join(dataDir, entry.name), PRIVATE_DIR_MODE);
    else if (entry.isFile()) tighten(join(dataDir, entry.name), PRIVATE_FILE_MODE);
  }
  return changes;
}

/** Creates `path` empty with owner-only permissions unless it exists (sqlite then gives its -wal/-shm the same). */
export function createPrivateFile(path: string): void {
  closeSync(openSync(path, "a", PRIVATE_FILE_MODE));
}

/** The stderr line for changes `preparePrivateDataDir` made. */
export function tightenedNotice(changes: string[]): string {
  return `od: other users could read od's data; permissions tightened (owner only): ${changes.join(", ")}\n`;
}
