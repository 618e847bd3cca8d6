/** Runs and their event logs. */
import type { FailureCategory, RunCleanup, RunStatus, RunSummary } from "../contracts/runs.ts";
import type { UsageQuery, UsageRun } from "../contracts/usage.ts";
import type { Isolation } from "../contracts/worktrees.ts";
import { worktreeInfoOf } from "./worktrees-repo.ts";
import type { ProcessIdentity } from "../runs/process-identity.ts";
import { loggedEventFromJson, type LoggedEvent } from "./event-json.ts";
import { perEvent } from "../platform/jit-tiers.ts";
import type { SqliteDatabase, SqlRow } from "./sqlite.ts";

export type NewRun = {
  id: string;
  projectId: string;
  conversationId: string;
  agentId: string;
  model: string | null;
  reasoning: string | null;
  /** The od process that runs it (default: this one, start time unknown). */
  owner?: ProcessIdentity;
  /** Whether it works in its conversation's worktree (default: in the project's folder). */
  isolation?: Isolation;
  /** The run group it belongs to (`POST /api/run-groups`). */
  groupId?: string;
};

/** What a run's CLI reported it used; null where it reported nothing. */
export type RunUsageTotals = {
  inputTokens: number | null;
  outputTokens: number | null;
  costUsd: number | null;
  reportedModel: string | null;
};

export type RunEnding = {
  status: RunStatus;
  exitCode: number | null;
  signal: string | null;
  failureCategory: FailureCategory | null;
  failureDetail: string | null;
  reason: string | null;
  errorCode: string | null;
  files: string[];
  /** Figures the CLI reported; absent when the run ended before any could be kept (a crash of ours). */
  usage?: RunUsageTotals;
  /** When it ended, if not now (a run od lost ended when it was last seen). */
  endedAt?: number;
};

const nullableString = (v: unknown) => (v === null || v === undefined ? null : String(v));
const nullableNumber = (v: unknown) => (v === null || v === undefined ? null : Number(v));

function toSummary(r: SqlRow): RunSummary {
  return {
    id: String(r.id),
    projectId: String(r.project_id),
    conversationId: String(r.conversation_id),
    agentId: String(r.agent_id),
    model: nullableString(r.model),
    reasoning: nullableString(r.reasoning),
    status: String(r.status) as RunStatus,
    createdAt: Number(r.created_at),
    startedAt: nullableNumber(r.started_at),
    endedAt: nullableNumber(r.ended_at),
    pid: nullableNumber(r.pid),
    exitCode: nullableNumber(r.exit_code),
    signal: nullableString(r.signal),
    failureCategory: nullableString(r.failure_category) as FailureCategory | null,
    failureDetail: nullableString(r.failure_detail),
    reason: nullableString(r.reason),
    errorCode: nullableString(r.error_code),
    files: JSON.parse(String(r.files_json)) as string[],
    cancelRequested: Number(r.cancel_requested) === 1,
    lastEventId: Number(r.last_event_id ?? 0),
    isolation: r.isolation === "worktree" ? "worktree" : "none",
    ...(r.group_id === null || r.group_id === undefined ? {} : { groupId: String(r.group_id) }),
    ...(r.isolation === "worktree" && r.wt_folder !== null && r.wt_folder !== undefined ? { worktree: worktreeInfoOf(r, "wt_") } : {}),
    ...(r.cleanup_since === null || r.cleanup_since === undefined ? {} : { cleanup: toCleanup(r) }),
  };
}

/** The run's row in pending_sweeps, joined as `cleanup_*` (see SUMMARY_SELECT). */
function toCleanup(r: SqlRow): RunCleanup {
  const finishedAt = nullableNumber(r.cleanup_finished_at);
  const lastError = nullableString(r.cleanup_last_error);
  return {
    status: finishedAt === null ? "pending" : "done",
    since: Number(r.cleanup_since),
    attempts: Number(r.cleanup_attempts),
    ...(lastError === null ? {} : { lastError }),
    ...(finishedAt === null ? {} : { finishedAt }),
  };
}

function toUsageRun(r: SqlRow): UsageRun {
  const startedAt = nullableNumber(r.started_at);
  const endedAt = nullableNumber(r.ended_at);
  return {
    runId: String(r.id),
    projectId: String(r.project_id),
    conversationId: String(r.conversation_id),
    agentId: String(r.agent_id),
    model: nullableString(r.reported_model) ?? nullableString(r.model),
    status: String(r.status) as RunStatus,
    startedAt,
    endedAt,
    durationMs: startedAt !== null && endedAt !== null ? Math.max(0, endedAt - startedAt) : null,
    inputTokens: nullableNumber(r.input_tokens),
    outputTokens: nullableNumber(r.output_tokens),
    costUsd: nullableNumber(r.cost_usd),
  };
}

const SUMMARY_SELECT =
  "SELECT runs.*, (SELECT COALESCE(MAX(last_id), 0) FROM run_event_batches WHERE run_id = runs.id) AS last_event_id," +
  " sweep.since AS cleanup_since, sweep.attempts AS cleanup_attempts, sweep.last_error AS cleanup_last_error, sweep.finished_at AS cleanup_finished_at," +
  " wt.folder AS wt_folder, wt.branch AS wt_branch, wt.base AS wt_base, wt.head AS wt_head, wt.carried_paths AS wt_carried_paths, wt.created_at AS wt_created_at," +
  " wt.applied_at AS wt_applied_at, wt.applied_mode AS wt_applied_mode, wt.discarded_at AS wt_discarded_at" +
  " FROM runs LEFT JOIN pending_sweeps AS sweep ON sweep.run_id = runs.id LEFT JOIN worktrees AS wt ON wt.conversation_id = runs.conversation_id";

/** What a run's end sets (RunsRepo.finish). */
const FINISH_COLUMNS = "status = ?, ended_at = ?, exit_code = ?, signal = ?, failure_category = ?, failure_detail = ?, reason = ?, error_code = ?, files_json = ?";

/**
 * Finished runs from a time on, newest first, at most a number of them (the usage view). Its
 * `COALESCE(started_at, created_at)` is the expression of the index `runs_by_start_time` (migration 19): sqlite uses the
 * index only for that exact expression.
 */
export const USAGE_SQL =
  "SELECT id, project_id, conversation_id, agent_id, model, reported_model, status, started_at, ended_at, input_tokens, output_tokens, cost_usd FROM runs WHERE status NOT IN ('queued', 'running') AND COALESCE(started_at, created_at) >= ? ORDER BY COALESCE(started_at, created_at) DESC LIMIT ?";

export type RunsFilter = { projectId?: string; conversationId?: string; status?: RunStatus | "active" };

/** The newest 500 runs that pass `filter`, each read from an index in that order (migration 20) or from a handful. */
export function runsListQuery(filter: RunsFilter): { sql: string; params: string[] } {
  const where: string[] = [];
  const params: string[] = [];
  // The active runs of a project are a handful: unary `+` keeps sqlite from the project's index, whose order would
  // have it read all of the project's runs, so it takes the status's.
  if (filter.projectId) (where.push(filter.status === "active" ? "+runs.project_id = ?" : "runs.project_id = ?"), params.push(filter.projectId));
  if (filter.conversationId) (where.push("runs.conversation_id = ?"), params.push(filter.conversationId));
  if (filter.status === "active") where.push("runs.status IN ('queued', 'running')");
  else if (filter.status) (where.push("runs.status = ?"), params.push(filter.status));
  return { sql: `${SUMMARY_SELECT}${where.length ? ` WHERE ${where.join(" AND ")}` : ""} ORDER BY runs.created_at DESC LIMIT 500`, params };
}

export class RunsRepo {
  static {
    perEvent(this.prototype.appendEvents);
  }

  /**
   * The last event id stored per run by `appendEvents`, while the run has not ended. A run's events have one writer
   * at a time (the od process running it; after that process died, the one that recovers the run), so after its first
   * batch the writer need not read the last stored id back before every flush: that read was a statement and a read
   * transaction per flush, ~0.14 µs a line of a 100k-line `od run`. A run created here starts at 0: it has no events
   * stored, and its first batch need not ask (a statement compiled and run before a short run's first output).
   */
  readonly #storedThrough = new Map<string, number>();

  constructor(private readonly db: SqliteDatabase) {}

  create(run: NewRun): void {
    this.db
      .prepare("INSERT INTO runs (id, project_id, conversation_id, agent_id, model, reasoning, status, created_at, owner_pid, owner_started, isolation, group_id) VALUES (?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?)")
      .run(run.id, run.projectId, run.conversationId, run.agentId, run.model, run.reasoning, Date.now(), run.owner?.pid ?? process.pid, run.owner?.startTime ?? null, run.isolation ?? "none", run.groupId ?? null);
    this.#storedThrough.set(run.id, 0);
  }
  markRunning(id: string, pid: number | null): void {
    this.db.prepare("UPDATE runs SET status = 'running', started_at = COALESCE(started_at, ?), pid = ? WHERE id = ?").run(Date.now(), pid, id);
  }
  markCancelRequested(id: string): void {
    this.db.prepare("UPDATE runs SET cancel_requested = 1 WHERE id = ?").run(id);
  }
  /** The run's outcome and its usage (when known), in one statement: stored together, in one commit, or not at all. */
  finish(id: string, ending: RunEnding): void {
    const outcome = [ending.status, ending.endedAt ?? Date.now(), ending.exitCode, ending.signal, ending.failureCategory, ending.failureDetail, ending.reason, ending.errorCode, JSON.stringify(ending.files)];
    const usage = ending.usage;
    if (!usage) {
      this.db.prepare(`UPDATE runs SET ${FINISH_COLUMNS} WHERE id = ?`).run(...outcome, id);
      return;
    }
    this.db
      .prepare(`UPDATE runs SET ${FINISH_COLUMNS}, input_tokens = ?, output_tokens = ?, cost_usd = ?, reported_model = ? WHERE id = ?`)
      .run(...outcome, usage.inputTokens, usage.outputTokens, usage.costUsd, usage.reportedModel, id);
  }
  /** A finished run's history as the JSON of its events (runs/history.ts), once it was read; else undefined. */
  storedHistory(id: string): string | undefined {
    const row = this.db
      .prepare("SELECT h.events_json FROM run_histories h JOIN runs r ON r.id = h.run_id WHERE h.run_id = ? AND r.status IN ('succeeded', 'failed', 'canceled')")
      .get(id);
    return row ? String(row.events_json) : undefined;
  }
  /** Keeps a finished run's history (the JSON of its events); a run not finished keeps none. */
  storeHistory(id: string, json: string): void {
    this.db
      .prepare("INSERT OR REPLACE INTO run_histories (run_id, events_json) SELECT id, ? FROM runs WHERE id = ? AND status IN ('succeeded', 'failed', 'canceled')")
      .run(json, id);
  }
  /** One run's usage figures (a live run's are null until it ends). */
  usageOf(id: string): UsageRun | undefined {
    const row = this.db
      .prepare("SELECT id, project_id, conversation_id, agent_id, model, reported_model, status, started_at, ended_at, input_tokens, output_tokens, cost_usd FROM runs WHERE id = ?")
      .get(id);
    return row ? toUsageRun(row) : undefined;
  }
  /** Finished runs' usage figures, newest first (by start), for the usage view. */
  usage(query: UsageQuery): UsageRun[] {
    const since = query.since ?? 0;
    const limit = query.limit ?? 2000;
    return this.db.prepare(USAGE_SQL).all(since, limit).map(toUsageRun);
  }
  get(id: string): RunSummary | undefined {
    const row = this.db.prepare(`${SUMMARY_SELECT} WHERE runs.id = ?`).get(id);
    return row ? toSummary(row) : undefined;
  }
  list(filter: RunsFilter): RunSummary[] {
    const { sql, params } = runsListQuery(filter);
    return this.db.prepare(sql).all(...params).map(toSummary);
  }
  /** Runs not yet ended, with the od process that owns each (null for rows older than owner tracking). */
  unfinished(filter: { conversationId?: string } = {}): (RunSummary & { owner: ProcessIdentity | null })[] {
    const where = filter.conversationId ? " AND runs.conversation_id = ?" : "";
    const params = filter.conversationId ? [filter.conversationId] : [];
    return this.db
      .prepare(`${SUMMARY_SELECT} WHERE runs.status IN ('queued', 'running')${where} ORDER BY runs.created_at`)
      .all(...params)
      .map((row) => {
        const pid = nullableNumber(row.owner_pid);
        return { ...toSummary(row), owner: pid === null ? null : { pid, startTime: nullableString(row.owner_started) } };
      });
  }

  /**
   * One row per call: the batch's JSON texts, one per line (JSON text has no raw newline), keyed by its last id.
   * Ids already stored are left out (the first write of an id wins): a log only ever appends after its last id.
   */
  appendEvents(runId: string, events: readonly LoggedEvent[]): void {
    const stored = this.#storedThrough.get(runId) ?? this.#lastStoredId(runId);
    const fresh = events[0] && events[0].id <= stored ? events.filter((event) => event.id > stored) : events;
    if (!fresh.length) return;
    let lines = fresh[0]!.json;
    for (let i = 1; i < fresh.length; i++) lines += "\n" + fresh[i]!.json;
    const last = fresh[fresh.length - 1]!;
    this.db.prepare("INSERT INTO run_event_batches (run_id, last_id, events) VALUES (?, ?, ?)").run(runId, last.id, lines);
    if (last.type === "end") this.#storedThrough.delete(runId);
    else this.#storedThrough.set(runId, last.id);
  }

  /**
   * Persisted events with id > afterId, in order: at most `limit`, and with `maxChars` no more once they reach it (at
   * least one). Rows are read one at a time, so a page holds at most one row (a flush, ≤ ~1 MB) beyond what it returns.
   */
  eventsAfter(runId: string, afterId: number, limit = 10_000, maxChars?: number): LoggedEvent[] {
    const page: LoggedEvent[] = [];
    let chars = 0;
    const next = this.db.prepare("SELECT last_id, events FROM run_event_batches WHERE run_id = ? AND last_id > ? ORDER BY last_id LIMIT 1");
    for (let cursor = afterId; page.length < limit; ) {
      const row = next.get(runId, cursor);
      if (!row) break;
      cursor = Number(row.last_id);
      for (const json of String(row.events).split("\n")) {
        const logged = loggedEventFromJson(json);
        if (logged.id <= afterId) continue;
        page.push(logged);
        chars += json.length;
        if (page.length >= limit || (maxChars !== undefined && chars >= maxChars)) return page;
      }
    }
    return page;
  }

  #lastStoredId(runId: string): number {
    return Number(this.db.prepare("SELECT COALESCE(MAX(last_id), 0) AS id FROM run_event_batches WHERE run_id = ?").get(runId)?.id ?? 0);
  }

  /**
   * The run's last persisted id, or the id reservation an older od (which sent events before storing them) recorded,
   * if higher: ids go on after both, so none is ever reused.
   */
  lastEventId(runId: string): number {
    const row = this.db
      .prepare("SELECT MAX((SELECT COALESCE(MAX(last_id), 0) FROM run_event_batches WHERE run_id = ?), COALESCE((SELECT event_ids_reserved FROM runs WHERE id = ?), 0)) AS id")
      .get(runId, runId);
    return Number(row?.id ?? 0);
  }
}
