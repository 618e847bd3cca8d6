/** bun:sqlite behind the portable SqliteDatabase interface. */
import type * as BunSqlite from "bun:sqlite";
import type { SqliteDatabase, SqliteOpener, SqlValue } from "../store/sqlite.ts";

export const openBunSqlite: SqliteOpener = (path, options) => {
  // Required on first open, not imported: the daemon's shell listens before the engine needs a database.
  const { Database } = import.meta.require("bun:sqlite") as typeof BunSqlite;
  const db = new Database(path, options?.create === false ? { readwrite: true, create: false, strict: true } : { create: true, strict: true });
  const wrapped: SqliteDatabase = {
    exec: (sql) => void db.exec(sql),
    prepare(sql) {
      // query(), not prepare(): bun:sqlite compiles each distinct SQL text once and hands back the cached statement,
      // so the store's per-call statements (an event batch every 10 ms per run while it streams) are not recompiled and finalized.
      const statement = db.query<Record<string, SqlValue>, SqlValue[]>(sql);
      return {
        run: (...params) => void statement.run(...params),
        get: (...params) => statement.get(...params) ?? undefined,
        all: (...params) => statement.all(...params),
      };
    },
    close: () => db.close(),
  };
  return wrapped;
};
