/** Several od processes opening one new od.db at once (two `od run`s started together on a fresh machine). */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { openDatabase, schemaVersion } from "../../server/store/database.ts";
import { MIGRATIONS } from "../../server/store/migrations.ts";
import { tempDir } from "../support/temp.ts";

const OPENERS = 6;
const opener = `
  const { openDatabase } = await import(${JSON.stringify(join(import.meta.dir, "..", "..", "server", "store", "database.ts"))});
  const { openBunSqlite } = await import(${JSON.stringify(join(import.meta.dir, "..", "..", "server", "platform", "sqlite-bun.ts"))});
  while (Date.now() < Number(process.env.START_AT)) {}
  openDatabase(process.env.DB_PATH, openBunSqlite).close();
`;

test("processes that open a new od.db at once each apply every migration once, and none fails", async () => {
  using dir = tempDir();
  const path = join(dir.path, "od.db");
  // Started together: each reads the schema version before another has committed its first migration.
  const startAt = String(Date.now() + 1_500);
  const children = Array.from({ length: OPENERS }, () =>
    Bun.spawn([process.execPath, "-e", opener], { env: { ...process.env, DB_PATH: path, START_AT: startAt }, stdout: "ignore", stderr: "pipe" }),
  );
  const results = await Promise.all(children.map(async (child) => ({ code: await child.exited, stderr: await new Response(child.stderr).text() })));
  expect(results.filter((result) => result.code !== 0).map((result) => result.stderr)).toEqual([]);
  const db = openDatabase(path, openBunSqlite);
  expect(schemaVersion(db)).toBe(MIGRATIONS.at(-1)!.version);
  db.close();
}, 30_000);
