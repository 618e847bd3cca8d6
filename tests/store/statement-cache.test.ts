// Each distinct SQL text is compiled once per connection (server/store/statement-cache.ts), however many texts the
// store runs in turn: bun:sqlite's own query cache keeps 20 and compiled the rest again on every call.
import { describe, expect, spyOn, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { statementCache } from "../../server/store/statement-cache.ts";
import { tempDir } from "../support/temp.ts";

describe("statementCache", () => {
  test("compiles each text once and hands back the same statement", () => {
    const compiled: string[] = [];
    const cache = statementCache((sql) => (compiled.push(sql), { sql }));
    const first = cache.get("SELECT 1");
    expect(cache.get("SELECT 2")).toEqual({ sql: "SELECT 2" });
    expect(cache.get("SELECT 1")).toBe(first);
    expect(compiled).toEqual(["SELECT 1", "SELECT 2"]);
  });

  test("past its limit the oldest text is let go, and compiled again when it comes back", () => {
    const compiled: string[] = [];
    const cache = statementCache((sql) => (compiled.push(sql), { sql }), 2);
    for (const sql of ["a", "b", "c", "b", "a"]) cache.get(sql);
    expect(compiled).toEqual(["a", "b", "c", "a"]);
    expect([...cache.values()].map((s) => s.sql)).toEqual(["c", "a"]);
  });
});

describe("bun:sqlite connections", () => {
  test("forty statements run in turn, twice, are compiled forty times, answer right, and close cleanly", () => {
    using dir = tempDir();
    const prepare = spyOn(Database.prototype, "prepare");
    const db = openBunSqlite(join(dir.path, "t.db"));
    try {
      db.exec("CREATE TABLE t (n INTEGER)");
      db.exec(`INSERT INTO t (n) VALUES ${Array.from({ length: 40 }, (_, n) => `(${n})`).join(", ")}`);
      prepare.mockClear();
      for (let round = 0; round < 2; round++) {
        for (let n = 0; n < 40; n++) expect(db.prepare(`SELECT n FROM t WHERE n = ${n}`).get()).toEqual({ n });
      }
      expect(prepare).toHaveBeenCalledTimes(40);
    } finally {
      db.close();
      prepare.mockRestore();
    }
  });
});
