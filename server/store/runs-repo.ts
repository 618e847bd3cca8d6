/** Runs and their event logs. */
import type { FailureCategory, RunEvent, RunStatus, RunSummary } from "../contracts/runs.ts";
import type { UsageQuery, UsageRun } from "../contracts/usage.ts";
import { loggedEventFromJson, type LoggedEvent } from "./event-json.ts";
import { inTransaction, type SqliteDatabase, type SqlRow } from "./sqlite.ts";

export type NewRun = {
  id: string;
  projectId: string;
  conversationId: string;
  agentId: string;
  model: string | null;
  reasoning: string | null;
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

const SUMMARY_SELECT = "SELECT runs.*, (SELECT COALESCE(MAX(id), 0) FROM run_events WHERE run_id = runs.id) AS last_event_id FROM runs";

export class RunsRepo {
  constructor(private readonly db: SqliteDatabase) {}

  create(run: NewRun): void {
    this.db
      .prepare("INSERT INTO runs (id, project_id, conversation_id, agent_id, model, reasoning, status, created_at, owner_pid) VALUES (?, ?, ?, ?, ?, ?, 'queued', ?, ?)")
      .run(run.id, run.projectId, run.conversationId, run.agentId, run.model, run.reasoning, Date.now(), process.pid);
  }
  markRunning(id: string, pid: number | null): void {
    this.db.prepare("UPDATE runs SET status = 'running', started_at = COALESCE(started_at, ?), pid = ? WHERE id = ?").run(Date.now(), pid, id);
  }
  markCancelRequested(id: string): void {
    this.db.prepare("UPDATE runs SET cancel_requested = 1 WHERE id = ?").run(id);
  }
  finish(id: string, ending: RunEnding): void {
    this.db
      .prepare(
        "UPDATE runs SET status = ?, ended_at = ?, exit_code = ?, signal = ?, failure_category = ?, failure_detail = ?, reason = ?, error_code = ?, files_json = ? WHERE id = ?",
      )
      .run(ending.status, Date.now(), ending.exitCode, ending.signal, ending.failureCategory, ending.failureDetail, ending.reason, ending.errorCode, JSON.stringify(ending.files), id);
    const usage = ending.usage;
    if (usage) {
      this.db
        .prepare("UPDATE runs SET input_tokens = ?, output_tokens = ?, cost_usd = ?, reported_model = ? WHERE id = ?")
        .run(usage.inputTokens, usage.outputTokens, usage.costUsd, usage.reportedModel, id);
    }
  }
  /** Finished runs' usage figures, newest first (by start), for the usage view. */
  usage(query: UsageQuery): UsageRun[] {
    const since = query.since ?? 0;
    const limit = query.limit ?? 2000;
    return this.db
      .prepare(
        "SELECT id, project_id, conversation_id, agent_id, model, reported_model, status, started_at, ended_at, input_tokens, output_tokens, cost_usd FROM runs WHERE status NOT IN ('queued', 'running') AND COALESCE(started_at, created_at) >= ? ORDER BY COALESCE(started_at, created_at) DESC LIMIT ?",
      )
      .all(since, limit)
      .map(toUsageRun);
  }
  get(id: string): RunSummary | undefined {
    const row = this.db.prepare(`${SUMMARY_SELECT} WHERE id = ?`).get(id);
    return row ? toSummary(row) : undefined;
  }
  list(filter: { projectId?: string; conversationId?: string; status?: RunStatus | "active" }): RunSummary[] {
    const where: string[] = [];
    const params: string[] = [];
    if (filter.projectId) (where.push("project_id = ?"), params.push(filter.projectId));
    if (filter.conversationId) (where.push("conversation_id = ?"), params.push(filter.conversationId));
    if (filter.status === "active") where.push("status IN ('queued', 'running')");
    else if (filter.status) (where.push("status = ?"), params.push(filter.status));
    const sql = `${SUMMARY_SELECT}${where.length ? ` WHERE ${where.join(" AND ")}` : ""} ORDER BY created_at DESC LIMIT 500`;
    return this.db.prepare(sql).all(...params).map(toSummary);
  }
  /** Runs not yet ended, with the pid of the od process that owns each. */
  unfinished(filter: { conversationId?: string } = {}): (RunSummary & { ownerPid: number | null })[] {
    const where = filter.conversationId ? " AND conversation_id = ?" : "";
    const params = filter.conversationId ? [filter.conversationId] : [];
    return this.db
      .prepare(`${SUMMARY_SELECT} WHERE status IN ('queued', 'running')${where} ORDER BY created_at`)
      .all(...params)
      .map((row) => ({ ...toSummary(row), ownerPid: nullableNumber(row.owner_pid) }));
  }

  appendEvents(runId: string, events: readonly LoggedEvent[]): void {
    if (!events.length) return;
    const insert = this.db.prepare("INSERT OR IGNORE INTO run_events (run_id, id, json) VALUES (?, ?, ?)");
    inTransaction(this.db, () => {
      for (const event of events) insert.run(runId, event.id, event.json);
    });
  }
  /** Persisted events with id > afterId, in order. */
  eventsAfter(runId: string, afterId: number, limit = 10_000): LoggedEvent[] {
    return this.db
      .prepare("SELECT json FROM run_events WHERE run_id = ? AND id > ? ORDER BY id LIMIT ?")
      .all(runId, afterId, limit)
      .map((r) => loggedEventFromJson(String(r.json)));
  }
  lastEventId(runId: string): number {
    return Number(this.db.prepare("SELECT COALESCE(MAX(id), 0) AS id FROM run_events WHERE run_id = ?").get(runId)?.id ?? 0);
  }
}
