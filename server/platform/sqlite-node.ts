/** node:sqlite (used under Deno) behind the portable SqliteDatabase interface. */
import { existsSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import type { SqliteOpener, SqliteStatement, SqlRow, SqlValue } from "../store/sqlite.ts";
import { statementCache } from "../store/statement-cache.ts";

export const openNodeSqlite: SqliteOpener = (path, options) => {
  // node:sqlite always creates a missing file: refuse one first when asked not to.
  if (options?.create === false && !existsSync(path)) throw new Error(`no database at ${path}`);
  const db = new DatabaseSync(path);
  // Each distinct SQL text compiled once for the connection's life, as with bun:sqlite (statement-cache.ts).
  const statements = statementCache((sql): SqliteStatement => {
    const statement = db.prepare(sql);
    return {
      run: (...params: SqlValue[]) => void statement.run(...params),
      get: (...params: SqlValue[]) => statement.get(...params) as SqlRow | undefined,
      all: (...params: SqlValue[]) => statement.all(...params) as SqlRow[],
    };
  });
  return {
    exec: (sql) => db.exec(sql),
    prepare: (sql) => statements.get(sql),
    close: () => db.close(),
  };
};
