/**
 * What the daemon loads first after it listens, before the engine: the data dir's database and the early answers
 * over it. An od.db that exists already (every start after the first) is opened with sqlite alone and the data dir
 * made private right after, so node:fs (some 2 ms to load in the binary) does not delay the first answer; the
 * -wal and -shm files sqlite adds meanwhile are in the dir by then and get tightened with it. A new data dir is
 * made private before its database is created. A module of its own so the binary's shell imports none of this
 * (node built-ins, sqlite) before it listens, and neither the engine's code nor zod loads before the first answer.
 */
import { resolve } from "node:path";
import { earlyAnswers, type EarlyAnswers } from "./http/early-answers.ts";
import type { OpenedDataDir } from "./open-data-dir.ts";
import { dataPaths } from "./paths.ts";
import { openExistingDatabase } from "./store/database-setup.ts";
import type { SqliteDatabase, SqliteOpener } from "./store/sqlite.ts";

export type Early = {
  db: SqliteDatabase;
  answer: EarlyAnswers;
  /** The data dir made private around `db`: what the engine takes over (rejects if it cannot be made private). */
  data: Promise<OpenedDataDir>;
};

export async function startEarly(dataDir: string, openSqlite: SqliteOpener): Promise<Early> {
  const absolute = resolve(dataDir);
  const existing = openExistingDatabase(dataPaths(absolute).database, openSqlite);
  if (existing) {
    // After the event loop has polled for I/O, so that requests already waiting for the database are answered first.
    const data = afterPendingIo()
      .then(() => import("./open-data-dir.ts"))
      .then(({ prepareOpenedDataDir }) => prepareOpenedDataDir(absolute, existing));
    data.catch(() => undefined); // the engine reports it
    return { db: existing, answer: earlyAnswers(existing), data };
  }
  const { openDataDir } = await import("./open-data-dir.ts");
  const opened = openDataDir(absolute, openSqlite);
  return { db: opened.db, answer: earlyAnswers(opened.db), data: Promise.resolve(opened) };
}

/**
 * A timer, not setImmediate: Bun runs immediates before it polls for I/O, so node:fs then loaded ahead of the
 * waiting request (measured in the binary: the first answer 0.6–0.9 ms later).
 */
function afterPendingIo(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
