/**
 * od.db's durability settings: WAL with `synchronous = NORMAL` (no fsync per commit); its page cache's size; its WAL
 * file emptied, not deleted, by the last close.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { openDatabase } from "../../server/store/database.ts";
import { PAGE_CACHE_KIB, WAL_SIZE_LIMIT_BYTES } from "../../server/store/database-setup.ts";
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

  test("the last close checkpoints the WAL into od.db and leaves the WAL file empty, not deleted", () => {
    using dir = tempDir();
    const path = join(dir.path, "od.db");
    const db = openDatabase(path, openBunSqlite);
    db.exec("CREATE TABLE notes (text TEXT NOT NULL)");
    for (let i = 0; i < 100; i++) db.prepare("INSERT INTO notes (text) VALUES (?)").run(`note ${i} ${"x".repeat(200)}`);
    expect(statSync(`${path}-wal`).size).toBeGreaterThan(0);
    db.close();
    expect(existsSync(`${path}-wal`)).toBe(true);
    expect(statSync(`${path}-wal`).size).toBe(0);
    // Every row is in od.db itself (the WAL holds nothing), and the next connection reads and writes as before.
    const again = openDatabase(path, openBunSqlite);
    try {
      expect(Number(again.prepare("SELECT count(*) AS n FROM notes").get()?.n)).toBe(100);
      again.prepare("INSERT INTO notes (text) VALUES (?)").run("one more");
      expect(Number(again.prepare("SELECT count(*) AS n FROM notes").get()?.n)).toBe(101);
    } finally {
      again.close();
    }
    expect(statSync(`${path}-wal`).size).toBe(0);
  });

  test("a WAL started over after a checkpoint keeps at most WAL_SIZE_LIMIT_BYTES", () => {
    using dir = tempDir();
    const db = openDatabase(join(dir.path, "od.db"), openBunSqlite);
    try {
      expect(Number(db.prepare("PRAGMA journal_size_limit").get()?.journal_size_limit)).toBe(WAL_SIZE_LIMIT_BYTES);
    } finally {
      db.close();
    }
  });
});
