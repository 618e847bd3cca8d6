/**
 * The small slice of SQLite the store uses, so bun:sqlite (the binary) and node:sqlite (Deno) are interchangeable.
 * Parameters are positional (`?`) because the two drivers disagree on named-parameter prefixes.
 */
export type SqlValue = string | number | bigint | null | Uint8Array;
export type SqlRow = Record<string, SqlValue>;

export interface SqliteStatement {
  run(...params: SqlValue[]): void;
  get(...params: SqlValue[]): SqlRow | undefined;
  all(...params: SqlValue[]): SqlRow[];
}

export interface SqliteDatabase {
  exec(sql: string): void;
  prepare(sql: string): SqliteStatement;
  close(): void;
}

/** Opens the database file at `path`, creating it if needed unless `create` is false (then a missing file throws). */
export type SqliteOpener = (path: string, options?: { create?: boolean }) => SqliteDatabase;

/** Run `fn` inside one write transaction; rolls back if it throws. */
export function inTransaction<T>(db: SqliteDatabase, fn: () => T): T {
  db.exec("BEGIN IMMEDIATE");
  try {
    const result = fn();
    db.exec("COMMIT");
    return result;
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
}
