/** The single app_config row. */
import { AppConfig, applyAppConfigPatch, type AppConfigPatch } from "../contracts/app-config.ts";
import { storedAppConfigJson } from "./app-config-row.ts";
import type { SqliteDatabase } from "./sqlite.ts";

export class AppConfigRepo {
  constructor(private readonly db: SqliteDatabase) {}

  get(): AppConfig {
    const json = storedAppConfigJson(this.db);
    if (json === undefined) return {};
    // A row written by a newer od may hold keys we don't know; keep what still validates rather than failing.
    const parsed = AppConfig.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : {};
  }

  update(patch: AppConfigPatch): AppConfig {
    const next = applyAppConfigPatch(this.get(), patch);
    this.db
      .prepare(
        "INSERT INTO app_config (id, json, updated_at) VALUES (1, ?, ?) ON CONFLICT(id) DO UPDATE SET json = excluded.json, updated_at = excluded.updated_at",
      )
      .run(JSON.stringify(next), Date.now());
    return next;
  }
}
