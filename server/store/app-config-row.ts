/**
 * The single app_config row as stored, read without its schema: AppConfigRepo validates it unless this od's schema
 * wrote it, and the daemon's early answers (server/http/early-answers.ts) can tell that nothing was ever saved
 * before zod has loaded.
 */
import type { SqliteDatabase } from "./sqlite.ts";

/**
 * The AppConfig schema a row was written with. A row of this format is what this od's own schema validated before
 * storing it, so it is used as it is; any other (older, newer, none) goes through the schema. Bump it with any change
 * to AppConfig: tests/store/app-config.test.ts pins it to the schema and fails until it is.
 */
export const APP_CONFIG_FORMAT = 1;

export type StoredAppConfig = { json: string; format: number | null };

export function storedAppConfig(db: SqliteDatabase): StoredAppConfig | undefined {
  const row = db.prepare("SELECT json, format FROM app_config WHERE id = 1").get();
  return row ? { json: String(row.json), format: typeof row.format === "number" ? row.format : null } : undefined;
}
