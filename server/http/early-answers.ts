/**
 * The requests the daemon answers itself while its engine (Elysia, the route modules, the run machinery) still
 * loads: each the same answer the engine's route gives, from the same database. A client's first call after start
 * (the UI's or a script's `GET /api/app-config`) then waits for sqlite, not for the whole engine. The guard has
 * already let the request through; anything not listed here waits for the engine.
 * tests/http/early-answers.test.ts holds every early answer against the engine's.
 */
import { storedAppConfig } from "../store/app-config-row.ts";
import type { SqliteDatabase } from "../store/sqlite.ts";

export type EarlyAnswers = (request: Request) => Response | Promise<Response> | undefined;

export function earlyAnswers(db: SqliteDatabase): EarlyAnswers {
  return (request) => {
    if (request.method !== "GET") return undefined;
    if (URL.parse(request.url)?.pathname === "/api/app-config") return appConfigAnswer(db);
    return undefined;
  };
}

/**
 * As server/http/app-config.ts answers (Elysia sends a plain object as Response.json does). Nothing saved yet is
 * `{}` without the schema; a saved config goes through the engine's own repo, which reads a row this od wrote as it
 * is and loads zod (some 6 ms in the binary) only to validate a row another od's schema wrote.
 */
function appConfigAnswer(db: SqliteDatabase): Response | Promise<Response> {
  if (storedAppConfig(db) === undefined) return Response.json({ config: {} });
  return import("../store/app-config-repo.ts").then(({ AppConfigRepo }) => Response.json({ config: new AppConfigRepo(db).get() }));
}
