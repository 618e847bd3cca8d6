/** bun:sqlite behind the portable SqliteDatabase interface. */
import type * as BunSqlite from "bun:sqlite";
import type { SqliteDatabase, SqliteOpener, SqliteStatement, SqlValue } from "../store/sqlite.ts";
import { statementCache } from "../store/statement-cache.ts";

export const openBunSqlite: SqliteOpener = (path, options) => {
  // Required on first open, not imported: the daemon's shell listens before the engine needs a database.
  const { Database, constants } = import.meta.require("bun:sqlite") as typeof BunSqlite;
  const db = new Database(path, options?.create === false ? { readwrite: true, create: false, strict: true } : { create: true, strict: true });
  // The last connection to close empties the WAL file instead of deleting it (with `journal_size_limit`, set by
  // database-setup.ts): see WAL_SIZE_LIMIT_BYTES there.
  db.fileControl(constants.SQLITE_FCNTL_PERSIST_WAL, 1);
  // Each distinct SQL text is compiled once for the connection's life (statement-cache.ts): not query(), whose own
  // cache keeps 20 texts of the store's ~90 and so compiled most of them again on most calls.
  const statements = statementCache((sql) => {
    const compiled = db.prepare<Record<string, SqlValue>, SqlValue[]>(sql);
    const statement: SqliteStatement = {
      run: (...params) => void compiled.run(...params),
      get: (...params) => compiled.get(...params) ?? undefined,
      all: (...params) => compiled.all(...params),
    };
    return { compiled, statement };
  });
  const wrapped: SqliteDatabase = {
    exec: (sql) => void db.exec(sql),
    prepare: (sql) => statements.get(sql).statement,
    close: () => {
      for (const { compiled } of statements.values()) compiled.finalize();
      db.close();
    },
  };
  return wrapped;
};
