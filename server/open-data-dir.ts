/**
 * The daemon's first step after it listens: the data dir made private (tightened if an older od left it readable)
 * and its database opened and migrated. The early answers (server/early.ts) read it, then the engine takes it over.
 */
import { resolve } from "node:path";
import { dataPaths } from "./paths.ts";
import { preparePrivateDataDir } from "./private-data-dir.ts";
import { openDatabase } from "./store/database.ts";
import type { SqliteDatabase, SqliteOpener } from "./store/sqlite.ts";

export type OpenedDataDir = {
  /** Absolute (resolved against the working directory: `od serve --data-dir` passes it on as the user gave it). */
  dataDir: string;
  db: SqliteDatabase;
  /** One sentence per permission `preparePrivateDataDir` tightened (empty when none). */
  tightened: string[];
};

export function openDataDir(dataDir: string, openSqlite: SqliteOpener): OpenedDataDir {
  const absolute = resolve(dataDir);
  const tightened = preparePrivateDataDir(absolute);
  return { dataDir: absolute, tightened, db: openDatabase(dataPaths(absolute).database, openSqlite) };
}
