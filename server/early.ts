/**
 * What the daemon loads first after it listens, before the engine: the opened data dir and the early answers over
 * it. A module of its own so the binary's shell imports none of it (node built-ins, sqlite) before it listens, and
 * neither the engine's code nor zod is evaluated before the first answer.
 */
import { earlyAnswers, type EarlyAnswers } from "./http/early-answers.ts";
import { openDataDir, type OpenedDataDir } from "./open-data-dir.ts";
import { tightenedNotice } from "./private-data-dir.ts";
import type { SqliteOpener } from "./store/sqlite.ts";

export type Early = { data: OpenedDataDir; answer: EarlyAnswers };

export function startEarly(dataDir: string, openSqlite: SqliteOpener): Early {
  const data = openDataDir(dataDir, openSqlite);
  if (data.tightened.length) console.error(tightenedNotice(data.tightened).trimEnd());
  return { data, answer: earlyAnswers(data.db) };
}
