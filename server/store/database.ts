/** Opens od.db once, creating it (and its folder) private to the owner if needed; set up as database-setup.ts says. */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { createPrivateFile, PRIVATE_DIR_MODE } from "../private-data-dir.ts";
import { setUpDatabase } from "./database-setup.ts";
import { MIGRATIONS, type Migration } from "./migrations.ts";
import type { SqliteDatabase, SqliteOpener } from "./sqlite.ts";

export { schemaVersion } from "./database-setup.ts";

export function openDatabase(path: string, open: SqliteOpener, migrations: Migration[] = MIGRATIONS): SqliteDatabase {
  if (path !== ":memory:") {
    mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
    createPrivateFile(path);
  }
  const db = open(path);
  try {
    return setUpDatabase(db, migrations);
  } catch (error) {
    db.close();
    throw error;
  }
}
