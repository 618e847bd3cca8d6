/**
 * One builder at a time across test processes. buildEmbeddedAssets() (scripts/build-binary.ts) deletes and rewrites
 * dist/web and dist/dsh, so a second process building at the same moment bundles from a half-written folder and its
 * compile fails ("Bundle failed"); test.sh runs parts side by side, and which files meet depends on the deal. Whoever
 * builds from dist/ holds this lock (a folder under dist/, made atomically); a lock whose process died is taken over.
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const LOCK = join(import.meta.dir, "..", "..", "dist", ".build-lock");

export async function withBuildLock<T>(build: () => Promise<T>): Promise<T> {
  mkdirSync(join(LOCK, ".."), { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK);
      writeFileSync(join(LOCK, "pid"), String(process.pid));
      break;
    } catch {
      if (!holderAlive()) rmSync(LOCK, { recursive: true, force: true });
      else await Bun.sleep(200);
    }
  }
  try {
    return await build();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** Whether the process that made the lock still runs (a lock made moments ago may not carry its pid yet). */
function holderAlive(): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(LOCK, "pid"), "utf8"));
  } catch {
    try {
      return Date.now() - statSync(LOCK).mtimeMs < 10_000;
    } catch {
      return false; // gone meanwhile
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
