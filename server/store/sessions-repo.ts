/**
 * Browser sessions (server/http/credentials.ts decides what they mean): one row per signed-in browser, keyed by the
 * SHA-256 of its secret, never the secret itself. Plain SQL and no schema library: the daemon checks sessions
 * through this before its engine has loaded.
 */
import type { SqliteDatabase } from "./sqlite.ts";

export class SessionsRepo {
  constructor(private readonly db: SqliteDatabase) {}

  insert(secretHash: string, now: number): void {
    this.db.prepare("INSERT OR REPLACE INTO sessions (secret_hash, created_at, last_used_at) VALUES (?, ?, ?)").run(secretHash, now, now);
  }

  /** When the session was last used (ms since the epoch), or undefined when there is no such session. */
  lastUsed(secretHash: string): number | undefined {
    const row = this.db.prepare("SELECT last_used_at FROM sessions WHERE secret_hash = ?").get(secretHash);
    return row ? Number(row.last_used_at) : undefined;
  }

  touch(secretHash: string, now: number): void {
    this.db.prepare("UPDATE sessions SET last_used_at = ? WHERE secret_hash = ?").run(now, secretHash);
  }

  delete(secretHash: string): void {
    this.db.prepare("DELETE FROM sessions WHERE secret_hash = ?").run(secretHash);
  }

  /** Ends every session; returns how many there were. */
  deleteAll(): number {
    const count = Number(this.db.prepare("SELECT count(*) AS n FROM sessions").get()?.n ?? 0);
    this.db.prepare("DELETE FROM sessions").run();
    return count;
  }

  /** Drops sessions unused since `unusedSince`, then the least recently used ones beyond `keep`. */
  prune(unusedSince: number, keep: number): void {
    this.db.prepare("DELETE FROM sessions WHERE last_used_at < ?").run(unusedSince);
    this.db
      .prepare("DELETE FROM sessions WHERE secret_hash NOT IN (SELECT secret_hash FROM sessions ORDER BY last_used_at DESC LIMIT ?)")
      .run(keep);
  }

  count(): number {
    return Number(this.db.prepare("SELECT count(*) AS n FROM sessions").get()?.n ?? 0);
  }
}
