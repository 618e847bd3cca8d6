/**
 * What every open of od.db applies: WAL mode, a busy timeout, foreign keys, and every pending migration.
 * `synchronous = NORMAL`: in WAL mode every commit is in the WAL file (the OS's page cache) before it returns, so a
 * crash or kill -9 of od loses nothing; only an OS crash or power loss can lose the last commits. It drops the
 * fsync each commit paid on the event loop (a streaming run appends a batch every 10 ms). A run's event-id reservation is such
 * a commit too: after an OS crash its readers (SSE connections, od run's stdout) are gone with the machine.
 * `cache_size`: sqlite's own page cache per connection, 512 KiB instead of its default 2 MB. od's writes are small
 * appends and its large reads are sequential pages of one run (the OS's page cache holds the file either way), so a
 * larger cache mostly held pages just written: with ten runs ending at once the daemon peaked 2–3 MB lower over idle
 * (median of 5 fresh daemons, interleaved, twice), and the HTTP API run was no slower.
 * `journal_size_limit`: see WAL_SIZE_LIMIT_BYTES.
 * No node:fs here: the daemon opens an existing od.db with this alone before anything else loads (server/early.ts).
 */
import { MIGRATIONS, type Migration } from "./migrations.ts";
import { inTransaction, type SqliteDatabase, type SqliteOpener } from "./sqlite.ts";

/** sqlite's page cache per connection, in KiB (see above). */
export const PAGE_CACHE_KIB = 512;

/**
 * The most a WAL file is left holding once sqlite starts it over after a checkpoint (above the daemon's deferred
 * checkpoints' 32 MB, so a streaming run never truncates it mid-stream). With a persistent WAL (bun:sqlite's opener),
 * a limit also makes the last connection's close, once its checkpoint is done and synced, truncate the WAL to empty
 * instead of deleting it, and the -shm file stays: each `od run` deleted both at its end and created them again (and
 * the folder's entries with them) at its start. A 20-line `od run` took 0.2–0.4 ms less (medians of 100–200
 * interleaved rounds: one binary with a switch, and two builds copied together). What is durable is unchanged: the
 * close still checkpoints and syncs before it truncates.
 */
export const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

export function setUpDatabase(db: SqliteDatabase, migrations: Migration[] = MIGRATIONS): SqliteDatabase {
  // First: the migrations wait for another od opening the database at the same moment.
  db.exec("PRAGMA busy_timeout = 5000");
  switchToWal(db);
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec("PRAGMA foreign_keys = ON");
  db.exec(`PRAGMA cache_size = -${PAGE_CACHE_KIB}`);
  db.exec(`PRAGMA journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  migrate(db, migrations);
  return db;
}

/**
 * od.db at `path` set up, when the file exists already (every start after the first); undefined when it cannot be
 * opened as it is (missing, or its folder is), for `openDatabase` to create it, or to say what is wrong.
 */
export function openExistingDatabase(path: string, open: SqliteOpener): SqliteDatabase | undefined {
  let db: SqliteDatabase;
  try {
    db = open(path, { create: false });
  } catch {
    return undefined;
  }
  try {
    return setUpDatabase(db);
  } catch (error) {
    db.close();
    throw error;
  }
}

/** How often, and how long apart, a new database's switch to WAL is tried while another connection holds its lock. */
const WAL_SWITCH_TRIES = 200;
const WAL_SWITCH_PAUSE_MS = 10;

/**
 * `PRAGMA journal_mode = WAL`, tried again while it is refused as busy. Switching a new database to WAL takes an
 * exclusive lock from a read lock, and sqlite refuses that at once, without the busy timeout, while another connection
 * does the same (each would wait for the other): two `od run`s started together on a fresh data dir. Once one has
 * switched the file, the others find it in WAL mode.
 */
function switchToWal(db: SqliteDatabase): void {
  for (let tries = 1; ; tries++) {
    try {
      db.exec("PRAGMA journal_mode = WAL");
      return;
    } catch (error) {
      if (tries >= WAL_SWITCH_TRIES || !/database is locked|SQLITE_BUSY/i.test(String((error as { code?: unknown })?.code ?? "") + String((error as Error)?.message ?? ""))) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, WAL_SWITCH_PAUSE_MS);
    }
  }
}

export function schemaVersion(db: SqliteDatabase): number {
  return Number(db.prepare("PRAGMA user_version").get()?.user_version ?? 0);
}

function migrate(db: SqliteDatabase, migrations: Migration[]): void {
  const current = schemaVersion(db);
  const latest = migrations[migrations.length - 1]?.version ?? 0;
  if (current > latest) {
    throw new Error(`od.db has schema version ${current}, newer than this od understands (${latest}); upgrade od`);
  }
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    inTransaction(db, () => {
      // Another od that opened the database at the same moment read the same version, and may have applied this one
      // while this process waited for the write lock.
      if (schemaVersion(db) >= migration.version) return;
      db.exec(migration.sql);
      db.exec(`PRAGMA user_version = ${migration.version}`);
    });
  }
}
