/**
 * Numbered schema migrations. The database's `PRAGMA user_version` records the last one applied; each runs once,
 * in order, inside a transaction. Never edit a shipped migration: add the next number.
 */
export type Migration = { version: number; name: string; sql: string };

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: "app config",
    sql: `
      CREATE TABLE app_config (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        json TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );
    `,
  },
];
