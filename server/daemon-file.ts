/**
 * How `od open` finds the daemon running on a data dir without any secret on a command line: the daemon writes its
 * address and API token into `<data dir>/daemon.json`, 0600 inside the 0700 data dir, so only od's own user can
 * read it (the same user who can read od.db and run agents anyway). The last daemon started on a data dir owns the
 * file; a daemon removes it on stop only while it is still its own.
 */
import { closeSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { PRIVATE_FILE_MODE } from "./private-data-dir.ts";

export type DaemonFile = {
  pid: number;
  /** `http://127.0.0.1:PORT` (or the --host od was bound to). */
  origin: string;
  /** The API token, for `Authorization: Bearer`. */
  token: string;
};

export const daemonFilePath = (dataDir: string) => join(dataDir, "daemon.json");

/** Written to a private temp name and renamed over, so a reader never sees half a file. */
export function writeDaemonFile(dataDir: string, file: DaemonFile): void {
  const path = daemonFilePath(dataDir);
  const temp = `${path}.${process.pid}.tmp`;
  rmSync(temp, { force: true });
  const fd = openSync(temp, "wx", PRIVATE_FILE_MODE);
  try {
    writeSync(fd, JSON.stringify(file) + "\n");
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
}

/** The daemon file of `dataDir`, or undefined when there is none (no daemon ever ran there, or it stopped). */
export function readDaemonFile(dataDir: string): DaemonFile | undefined {
  let text: string;
  try {
    text = readFileSync(daemonFilePath(dataDir), "utf8");
  } catch {
    return undefined;
  }
  const parsed = JSON.parse(text) as Partial<DaemonFile>;
  if (typeof parsed.origin !== "string" || typeof parsed.token !== "string" || typeof parsed.pid !== "number") {
    throw new Error(`${daemonFilePath(dataDir)} is not a daemon file od wrote`);
  }
  return { pid: parsed.pid, origin: parsed.origin, token: parsed.token };
}

/** Removes the daemon file if it still names `pid` (a newer daemon on the same data dir keeps its own). */
export function removeDaemonFile(dataDir: string, pid: number): void {
  try {
    if (readDaemonFile(dataDir)?.pid === pid) rmSync(daemonFilePath(dataDir), { force: true });
  } catch {
    // Unreadable or not ours: leave it.
  }
}
