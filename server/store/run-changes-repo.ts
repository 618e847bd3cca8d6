/** What each run changed in its project (server/projects/changes/), kept with the run: one row per file. */
import type { FileChange, RunChangesResponse } from "../contracts/changes.ts";
import { inTransaction, type SqliteDatabase, type SqlRow } from "./sqlite.ts";

function toChange(r: SqlRow): FileChange {
  return {
    path: String(r.path),
    kind: String(r.kind) as FileChange["kind"],
    diff: r.diff === null || r.diff === undefined ? null : String(r.diff),
    additions: Number(r.additions),
    deletions: Number(r.deletions),
    binary: Number(r.binary) === 1,
    ...(r.omitted ? { omitted: String(r.omitted) as NonNullable<FileChange["omitted"]> } : {}),
    ...(r.after_sha256 ? { afterSha256: String(r.after_sha256) } : {}),
  };
}

export class RunChangesRepo {
  constructor(private readonly db: SqliteDatabase) {}

  /** Replaces what is stored for `runId`. */
  save(runId: string, source: NonNullable<RunChangesResponse["source"]>, changes: FileChange[]): void {
    inTransaction(this.db, () => {
      this.db.prepare("DELETE FROM run_changes WHERE run_id = ?").run(runId);
      const insert = this.db.prepare(
        "INSERT INTO run_changes (run_id, path, kind, additions, deletions, binary, omitted, diff, after_sha256) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
      );
      for (const c of changes) insert.run(runId, c.path, c.kind, c.additions, c.deletions, c.binary ? 1 : 0, c.omitted ?? null, c.diff, c.afterSha256 ?? null);
      this.db.prepare("UPDATE runs SET changes_source = ? WHERE id = ?").run(source, runId);
    });
  }

  /** The run's changes by path; `source` null when none were recorded (a run from before, or still going). */
  list(runId: string): RunChangesResponse {
    const source = this.db.prepare("SELECT changes_source FROM runs WHERE id = ?").get(runId)?.changes_source;
    const changes = this.db.prepare("SELECT * FROM run_changes WHERE run_id = ? ORDER BY path").all(runId).map(toChange);
    return { changes, source: source === "git" || source === "walk" ? source : null };
  }
}
