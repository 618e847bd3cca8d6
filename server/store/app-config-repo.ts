/** The single app_config row. */
import type * as AppConfigContract from "../contracts/app-config.ts";
import type { AppConfig, AppConfigPatch } from "../contracts/app-config.ts";
import { applyAppConfigPatch } from "../contracts/app-config-patch.ts";
import { loadOnFirstUse } from "../platform/load-on-first-use.ts";
import { APP_CONFIG_FORMAT, storedAppConfig } from "./app-config-row.ts";
import type { SqliteDatabase } from "./sqlite.ts";

/** The schema, built once a row another schema wrote is read: `od run` never loads zod for a config it saved. */
const appConfigContract = loadOnFirstUse<typeof AppConfigContract>(import.meta.url, "../contracts/app-config.ts", () => require("../contracts/app-config.ts"));

export class AppConfigRepo {
  constructor(private readonly db: SqliteDatabase) {}

  get(): AppConfig {
    const row = storedAppConfig(this.db);
    if (row === undefined) return {};
    // Validated by this schema before it was stored (update, below).
    if (row.format === APP_CONFIG_FORMAT) return JSON.parse(row.json) as AppConfig;
    // A row written by an older or newer od may hold keys we don't know; keep what still validates rather than failing.
    const parsed = appConfigContract().AppConfig.safeParse(JSON.parse(row.json));
    return parsed.success ? parsed.data : {};
  }

  update(patch: AppConfigPatch): AppConfig {
    // Checked whole before it is stored: a row of this format is read back without the schema (get, above).
    const next = appConfigContract().AppConfig.parse(applyAppConfigPatch(this.get(), patch));
    this.db
      .prepare(
        "INSERT INTO app_config (id, json, updated_at, format) VALUES (1, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET json = excluded.json, updated_at = excluded.updated_at, format = excluded.format",
      )
      .run(JSON.stringify(next), Date.now(), APP_CONFIG_FORMAT);
    return next;
  }
}
