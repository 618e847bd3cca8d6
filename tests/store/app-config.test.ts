/** The app config row: what this od's schema wrote is read as it is; a row any other schema wrote is checked. */
import { createHash } from "node:crypto";
import { expect, test } from "bun:test";
import { z } from "../../server/contracts/zod.ts";
import { AppConfig } from "../../server/contracts/app-config.ts";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { APP_CONFIG_FORMAT } from "../../server/store/app-config-row.ts";
import { Store } from "../../server/store/store.ts";

const store = () => Store.open(":memory:", openBunSqlite);
const writeRow = (db: Store, json: unknown, format: number | null) =>
  db.db.prepare("INSERT INTO app_config (id, json, updated_at, format) VALUES (1, ?, 0, ?)").run(JSON.stringify(json), format);

test("APP_CONFIG_FORMAT names the AppConfig schema: a change to the schema fails here until the format is bumped", () => {
  // On a change to AppConfig: bump APP_CONFIG_FORMAT (server/store/app-config-row.ts), then set both values below.
  const schema = createHash("sha256").update(JSON.stringify(z.toJSONSchema(AppConfig))).digest("hex").slice(0, 16);
  expect({ format: APP_CONFIG_FORMAT, schema }).toEqual({ format: 1, schema: "5dcc55235ad655f5" });
});

test("a saved config is stored with its format and read back as saved", () => {
  const db = store();
  db.appConfig.update({ theme: "dark", approvalTimeoutMs: 120_000 });
  expect(db.db.prepare("SELECT format FROM app_config WHERE id = 1").get()).toEqual({ format: APP_CONFIG_FORMAT });
  expect(db.appConfig.get()).toEqual({ theme: "dark", approvalTimeoutMs: 120_000 });
  db.close();
});

test("a row of this format is used as it is; a row of another format (or none) goes through the schema", () => {
  // A theme this schema refuses: only a row read without the schema keeps it.
  const refused = { theme: "neon" };
  expect(AppConfig.safeParse(refused).success).toBe(false);
  const own = store();
  writeRow(own, refused, APP_CONFIG_FORMAT);
  expect(own.appConfig.get()).toEqual(refused as AppConfig);
  own.close();
  for (const format of [null, APP_CONFIG_FORMAT + 1]) {
    const other = store();
    writeRow(other, refused, format);
    expect(other.appConfig.get()).toEqual({});
    other.close();
    const valid = store();
    writeRow(valid, { theme: "dark" }, format);
    expect(valid.appConfig.get()).toEqual({ theme: "dark" });
    valid.close();
  }
});

test("an update checks the whole config it stores", () => {
  const db = store();
  writeRow(db, { theme: "neon" }, APP_CONFIG_FORMAT);
  expect(() => db.appConfig.update({ approvalTimeoutMs: 120_000 })).toThrow();
  db.close();
});
