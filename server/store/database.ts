/**
 * Opens od.db once: WAL mode, a busy timeout, and every pending migration applied.
 * `synchronous = NORMAL`: in WAL mode every commit is in the WAL file (the OS's page cache) before it returns, so a
 * crash or kill -9 of od loses nothing; only an OS crash or power loss can lose the last commits. It drops the
 * fsync each commit paid on the event loop (a run appends a batch every 50 ms). A run's event-id reservation is such
 * a commit too: after an OS crash its readers (SSE connections, od run's stdout) are gone with the machine.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { createPrivateFile, PRIVATE_DIR_MODE } from "../private-data-dir.ts";
import { MIGRATIONS, type Migration } from "./migrations.ts";
import { inTransaction, type SqliteDatabase, type SqliteOpener } from "./sqlite.ts";

export function openDatabase(path: string, open: SqliteOpener, migrations: Migration[] = MIGRATIONS): SqliteDatabase {
  if (path !== ":memory:") {
    mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
    createPrivateFile(path);
  }
  const db = open(path);
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec("PRAGMA busy_timeout = 5000");
  db.exec("PRAGMA foreign_keys = ON");
  migrate(db, migrations);
  return db;
}

export function schemaVersion(db: SqliteDatabase): number {
  return Number(db.prepare("PRAGMA user_version").get()?.user_version ?? 0);
}

function migrate(db: SqliteDatabase, migrations: Migration[]): void {
  const current = schemaVersion(db);
  const latest = migrations.at(-1)?.version ?? 0;
  if (current > latest) {
    throw new Error(`od.db has schema version ${current}, newer than this od understands (${latest}); upgrade od`);
  }
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    inTransaction(db, () => {
      db.exec(migration.sql);
      db.exec(`PRAGMA user_version = ${migration.version}`);
    });
  }
}
