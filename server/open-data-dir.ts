/**
 * The data dir made private (tightened if an older od left it readable, and said so on stderr) with its database
 * open and migrated: what the engine takes over. The daemon gets there in one of two orders (server/early.ts).
 */
import { resolve } from "node:path";
import { dataPaths } from "./paths.ts";
import { preparePrivateDataDir, tightenedNotice } from "./private-data-dir.ts";
import { openDatabase } from "./store/database.ts";
import type { SqliteDatabase, SqliteOpener } from "./store/sqlite.ts";

export type OpenedDataDir = {
  /** Absolute (resolved against the working directory: `od serve --data-dir` passes it on as the user gave it). */
  dataDir: string;
  db: SqliteDatabase;
  /** One sentence per permission `preparePrivateDataDir` tightened (empty when none). */
  tightened: string[];
};

/** Makes the data dir private, then creates (private) or opens its database. */
export function openDataDir(dataDir: string, openSqlite: SqliteOpener): OpenedDataDir {
  const absolute = resolve(dataDir);
  const tightened = reported(preparePrivateDataDir(absolute));
  return { dataDir: absolute, tightened, db: openDatabase(dataPaths(absolute).database, openSqlite) };
}

/** Makes private a data dir whose existing database was opened first (`openExistingDatabase`). */
export function prepareOpenedDataDir(dataDir: string, db: SqliteDatabase): OpenedDataDir {
  return { dataDir, db, tightened: reported(preparePrivateDataDir(dataDir)) };
}

function reported(tightened: string[]): string[] {
  if (tightened.length) console.error(tightenedNotice(tightened).trimEnd());
  return tightened;
}
