/** The single app_config row. */
import type * as AppConfigContract from "../contracts/app-config.ts";
import type { AppConfig, AppConfigPatch } from "../contracts/app-config.ts";
import { applyAppConfigPatch } from "../contracts/app-config-patch.ts";
import { loadOnFirstUse } from "../platform/load-on-first-use.ts";
import { storedAppConfigJson } from "./app-config-row.ts";
import type { SqliteDatabase } from "./sqlite.ts";

/** The schema, built once a saved config is read: with nothing saved, `od run` never loads zod. */
const appConfigContract = loadOnFirstUse<typeof AppConfigContract>(import.meta.url, "../contracts/app-config.ts", () => require("../contracts/app-config.ts"));

export class AppConfigRepo {
  constructor(private readonly db: SqliteDatabase) {}

  get(): AppConfig {
    const json = storedAppConfigJson(this.db);
    if (json === undefined) return {};
    // A row written by a newer od may hold keys we don't know; keep what still validates rather than failing.
    const parsed = appConfigContract().AppConfig.safeParse(JSON.parse(json));
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
