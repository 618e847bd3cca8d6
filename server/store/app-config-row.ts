/**
 * The single app_config row's stored text, read without its schema: AppConfigRepo validates it, and the daemon's
 * early answers (server/http/early-answers.ts) can tell that nothing was ever saved before zod has loaded.
 */
import type { SqliteDatabase } from "./sqlite.ts";

export function storedAppConfigJson(db: SqliteDatabase): string | undefined {
  const row = db.prepare("SELECT json FROM app_config WHERE id = 1").get();
  return row ? String(row.json) : undefined;
}
