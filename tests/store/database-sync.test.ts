/** od.db's durability settings: WAL with `synchronous = NORMAL` (no fsync per commit); its page cache's size. */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { openDatabase } from "../../server/store/database.ts";
import { PAGE_CACHE_KIB } from "../../server/store/database-setup.ts";
import type { SqliteDatabase } from "../../server/store/sqlite.ts";
import { tempDir } from "../support/temp.ts";

const synchronous = (db: SqliteDatabase) => Number(db.prepare("PRAGMA synchronous").get()?.synchronous);
const NORMAL = 1;

describe("od.db durability", () => {
  test("a file database runs in WAL mode with synchronous = NORMAL", () => {
    using dir = tempDir();
    const db = openDatabase(join(dir.path, "od.db"), openBunSqlite);
    try {
      expect(String(db.prepare("PRAGMA journal_mode").get()?.journal_mode)).toBe("wal");
      expect(synchronous(db)).toBe(NORMAL);
    } finally {
      db.close();
    }
  });

  test(`every connection keeps a ${PAGE_CACHE_KIB} KiB page cache, not sqlite's 2 MB default`, () => {
    using dir = tempDir();
    const db = openDatabase(join(dir.path, "od.db"), openBunSqlite);
    try {
      expect(Number(db.prepare("PRAGMA cache_size").get()?.cache_size)).toBe(-PAGE_CACHE_KIB);
    } finally {
      db.close();
    }
  });
});
