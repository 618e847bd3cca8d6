/**
 * Remote runs' clean-ups that did not finish with the run (server/runs/remote-cleanups.ts): one row per run, kept
 * after the sweep finally reaches the location (with `finished_at`), as the run's record of it. The run summary reads
 * it with the run (runs-repo.ts).
 */
import type { SqliteDatabase } from "./sqlite.ts";

/** A clean-up still to do: the run and the location (its stored project path) where its processes may run. */
export type PendingSweep = { runId: string; location: string };

export class PendingSweepsRepo {
  constructor(private readonly db: SqliteDatabase) {}

  /** Starts the record of `runId`'s clean-up (kept as it is when one exists); `failure` counts a try that gave up. */
  record(runId: string, location: string, since: number, failure?: string): void {
    this.db
      .prepare("INSERT OR IGNORE INTO pending_sweeps (run_id, location, since, attempts, last_error) VALUES (?, ?, ?, ?, ?)")
      .run(runId, location, since, failure === undefined ? 0 : 1, failure ?? null);
  }

  /** A try that did not reach the location; nothing when the run has no record. */
  failed(runId: string, why: string): void {
    this.db.prepare("UPDATE pending_sweeps SET attempts = attempts + 1, last_error = ? WHERE run_id = ? AND finished_at IS NULL").run(why, runId);
  }

  /** The sweep reached the location; nothing when the run has no record or it had already finished. */
  finished(runId: string, at: number): void {
    this.db.prepare("UPDATE pending_sweeps SET attempts = attempts + 1, finished_at = ? WHERE run_id = ? AND finished_at IS NULL").run(at, runId);
  }

  /** Every clean-up not yet finished, oldest first. */
  pending(): PendingSweep[] {
    return this.db
      .prepare("SELECT run_id, location FROM pending_sweeps WHERE finished_at IS NULL ORDER BY since")
      .all()
      .map((row) => ({ runId: String(row.run_id), location: String(row.location) }));
  }
}
