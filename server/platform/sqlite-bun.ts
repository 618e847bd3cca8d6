/** bun:sqlite behind the portable SqliteDatabase interface. */
import { Database } from "bun:sqlite";
import type { SqliteDatabase, SqliteOpener, SqlValue } from "../store/sqlite.ts";

export const openBunSqlite: SqliteOpener = (path) => {
  const db = new Database(path, { create: true, strict: true });
  const wrapped: SqliteDatabase = {
    exec: (sql) => void db.exec(sql),
    prepare(sql) {
      const statement = db.prepare<Record<string, SqlValue>, SqlValue[]>(sql);
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
