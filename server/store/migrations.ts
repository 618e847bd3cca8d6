/**
 * Numbered schema migrations. The database's `PRAGMA user_version` records the last one applied; each runs once,
 * in order, inside a transaction. Never edit a shipped migration: add the next number.
 */
export type Migration = { version: number; name: string; sql: string };

/** FROM … ORDER BY … LIMIT 1 picking the last `usage` part of the run's stored assistant message. */
const LAST_USAGE_PART = `
  FROM messages AS m, json_each(CASE WHEN json_valid(m.events_json) THEN m.events_json ELSE '[]' END) AS part
  WHERE m.run_id = runs.id AND (CASE WHEN part.type = 'object' THEN json_extract(part.value, '$.type') END) = 'usage'
  ORDER BY part.key DESC LIMIT 1`;

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: "app config",
    sql: `
      CREATE TABLE app_config (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        json TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: "projects, conversations, messages, runs, run events, agent sessions",
    sql: `
      CREATE TABLE projects (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        path TEXT NOT NULL UNIQUE,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE conversations (
        id TEXT PRIMARY KEY,
        project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        title TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX conversations_by_project ON conversations(project_id, updated_at);
      CREATE TABLE runs (
        id TEXT PRIMARY KEY,
        project_id TEXT NOT NULL,
        conversation_id TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        model TEXT,
        reasoning TEXT,
        status TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        started_at INTEGER,
        ended_at INTEGER,
        pid INTEGER,
        exit_code INTEGER,
        signal TEXT,
        failure_category TEXT,
        failure_detail TEXT,
        reason TEXT,
        error_code TEXT,
        files_json TEXT NOT NULL DEFAULT '[]',
        cancel_requested INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX runs_by_conversation ON runs(conversation_id, created_at);
      CREATE INDEX runs_by_status ON runs(status);
      CREATE TABLE run_events (
        run_id TEXT NOT NULL,
        id INTEGER NOT NULL,
        json TEXT NOT NULL,
        PRIMARY KEY (run_id, id)
      ) WITHOUT ROWID;
      CREATE TABLE messages (
        id TEXT PRIMARY KEY,
        conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        role TEXT NOT NULL,
        text TEXT NOT NULL,
        events_json TEXT,
        run_id TEXT,
        agent_id TEXT,
        started_at INTEGER,
        ended_at INTEGER,
        files_json TEXT NOT NULL DEFAULT '[]',
        created_at INTEGER NOT NULL
      );
      CREATE INDEX messages_by_conversation ON messages(conversation_id, created_at);
      CREATE TABLE agent_sessions (
        conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        agent_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (conversation_id, agent_id)
      );
    `,
  },
  {
    version: 3,
    name: "the od process that owns a run",
    // Several od processes share one data dir (the daemon, `od run`): a run is orphaned only when its owner is gone.
    sql: `ALTER TABLE runs ADD COLUMN owner_pid INTEGER;`,
  },
  {
    version: 4,
    name: "when the od process that owns a run started",
    // A pid alone cannot tell a live owner from its zombie or from a process that reused the pid (Issue #17).
    sql: `ALTER TABLE runs ADD COLUMN owner_started TEXT;`,
  },
  {
    version: 5,
    name: "event ids a run may have sent before persisting them",
    // Live readers get events before their batch is written; a restart continues after this mark (Issue #17).
    sql: `ALTER TABLE runs ADD COLUMN event_ids_reserved INTEGER NOT NULL DEFAULT 0;`,
  },
  {
    version: 6,
    name: "what each run changed in its project, with diffs",
    sql: `
      CREATE TABLE run_changes (
        run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        kind TEXT NOT NULL,
        additions INTEGER NOT NULL,
        deletions INTEGER NOT NULL,
        binary INTEGER NOT NULL,
        omitted TEXT,
        diff TEXT,
        PRIMARY KEY (run_id, path)
      );
      ALTER TABLE runs ADD COLUMN changes_source TEXT;
    `,
  },
  {
    version: 7,
    name: "usage figures of a run (tokens, cost, reported model)",
    // Filled when a run ends. Runs stored before this keep their figures on the assistant message (its last usage
    // part): copy them over once, so the usage view covers the whole history. Malformed message JSON is skipped.
    sql: `
      ALTER TABLE runs ADD COLUMN input_tokens INTEGER;
      ALTER TABLE runs ADD COLUMN output_tokens INTEGER;
      ALTER TABLE runs ADD COLUMN cost_usd REAL;
      ALTER TABLE runs ADD COLUMN reported_model TEXT;
      CREATE INDEX runs_by_started ON runs(started_at);
      UPDATE runs SET
        input_tokens = (SELECT json_extract(part.value, '$.inputTokens') ${LAST_USAGE_PART}),
        output_tokens = (SELECT json_extract(part.value, '$.outputTokens') ${LAST_USAGE_PART}),
        cost_usd = (SELECT json_extract(part.value, '$.costUsd') ${LAST_USAGE_PART})
      WHERE status NOT IN ('queued', 'running');
    `,
  },
  {
    version: 8,
    name: "a run's events stored a flushed batch per row",
    // A row per event in a WITHOUT ROWID table: its pages split half full as the log grows at its end, so a 100k-event
    // run wrote 17 MB of pages (and 21k WAL frame writes) for 12 MB of JSON, ~1.3 µs of every event. A row per
    // flush (the batch's JSON lines, keyed by its last id) is written once, packed. Stored events become one-event
    // rows, in order.
    sql: `
      CREATE TABLE run_event_batches (
        run_id TEXT NOT NULL,
        last_id INTEGER NOT NULL,
        events TEXT NOT NULL,
        PRIMARY KEY (run_id, last_id)
      );
      INSERT INTO run_event_batches (run_id, last_id, events) SELECT run_id, id, json FROM run_events ORDER BY run_id, id;
      DROP TABLE run_events;
    `,
  },
  {
    version: 9,
    name: "a finished answer's text stored once, inside its folded events",
    // messages.text held a second copy of every folded answer's text parts: ~half of what a run's end wrote (a 3.4 MB
    // answer: 7 MB per row), its copies in memory, and its pages in the WAL. Rows written from now on keep text = ''
    // with text_in_events = 1, and readers join it from events_json (server/store/message-text.ts). Older rows stay as
    // they are: their text column is still the text.
    sql: `ALTER TABLE messages ADD COLUMN text_in_events INTEGER NOT NULL DEFAULT 0;`,
  },
  {
    version: 10,
    name: "browser sessions that outlive a restart",
    // Only a hash of each session secret: whoever reads od.db cannot sign in with it. last_used_at decides expiry.
    sql: `
      CREATE TABLE sessions (
        secret_hash TEXT PRIMARY KEY,
        created_at INTEGER NOT NULL,
        last_used_at INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX sessions_by_last_use ON sessions(last_used_at);
    `,
  },
  {
    version: 11,
    name: "a remote run's clean-up that did not finish with the run",
    // The sweep of a run's processes on another machine or in a container that could not reach it (Issue #35): kept
    // until a retry reaches it, across restarts of od; the row stays, with finished_at, as the run's record of it.
    sql: `
      CREATE TABLE pending_sweeps (
        run_id TEXT PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
        location TEXT NOT NULL,
        since INTEGER NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        last_error TEXT,
        finished_at INTEGER
      );
      CREATE INDEX pending_sweeps_unfinished ON pending_sweeps(finished_at) WHERE finished_at IS NULL;
    `,
  },
  {
    version: 12,
    name: "consent to a project's own MCP servers",
    // A project's .od/mcp-config.json starts programs (Issue #37): its servers reach a run only once the person has
    // approved that exact list (its hash) for that project. A changed file has another hash, so it asks again.
    sql: `
      CREATE TABLE mcp_consents (
        project_id TEXT PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
        servers_hash TEXT NOT NULL,
        granted_at INTEGER NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 13,
    name: "isolated runs: worktrees and run groups",
    // Issue #38: a conversation may run in a git worktree of its own (one per conversation, kept across its turns),
    // and one prompt may go to several agents at once (a run group, one worktree run each, from one base).
    sql: `
      CREATE TABLE worktrees (
        conversation_id TEXT PRIMARY KEY REFERENCES conversations(id) ON DELETE CASCADE,
        project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        folder TEXT NOT NULL,
        branch TEXT NOT NULL,
        base TEXT NOT NULL,
        head TEXT NOT NULL,
        prefix TEXT NOT NULL,
        carried_paths INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        applied_at INTEGER,
        applied_mode TEXT,
        discarded_at INTEGER
      ) WITHOUT ROWID;
      CREATE INDEX worktrees_by_project ON worktrees(project_id, created_at);
      CREATE TABLE run_groups (
        id TEXT PRIMARY KEY,
        project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        message TEXT NOT NULL,
        base TEXT,
        created_at INTEGER NOT NULL
      );
      ALTER TABLE runs ADD COLUMN isolation TEXT NOT NULL DEFAULT 'none';
      ALTER TABLE runs ADD COLUMN group_id TEXT;
      CREATE INDEX runs_by_group ON runs(group_id) WHERE group_id IS NOT NULL;
    `,
  },
  {
    version: 14,
    name: "what a file held after its run",
    // What a file held after its run, as a SHA-256 of its text: a run's changes are reverted only from files still
    // exactly as the run left them.
    sql: `ALTER TABLE run_changes ADD COLUMN after_sha256 TEXT;`,
  },
  {
    version: 15,
    name: "a finished run's history, kept once read",
    // A finished run's events never change, yet its history (server/runs/history.ts) read and coalesced every one
    // of them again at each open: 100k events, a few hundred ms before the page could show the turn.
    // In a table of its own: the runs' listings (SELECT runs.*) never read it.
    sql: `
      CREATE TABLE run_histories (
        run_id TEXT PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
        events_json TEXT NOT NULL
      );
    `,
  },
  {
    version: 16,
    name: "the app config's format",
    // Which AppConfig schema wrote the row (APP_CONFIG_FORMAT): a row this od's schema wrote is read without zod,
    // which an `od run` otherwise loaded, with the schemas it builds, for a saved theme alone (~3.5 ms of its start).
    sql: `ALTER TABLE app_config ADD COLUMN format INTEGER;`,
  },
  {
    version: 17,
    name: "an answer's text, kept once read",
    // An answer stored once (migration 9) was joined from its folded events at every read of its conversation: for a
    // 683 KB answer, 5–12 ms of sqlite's JSON on each open of the page, the requests behind it waiting. Kept at its
    // first read instead, not at the run's end (whose write migration 9 halved); a fold written again drops it.
    sql: `
      CREATE TABLE message_texts (
        message_id TEXT PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
        text TEXT NOT NULL
      );
      CREATE TRIGGER message_texts_follow_their_events AFTER UPDATE OF events_json ON messages
      BEGIN
        DELETE FROM message_texts WHERE message_id = NEW.id;
      END;
    `,
  },
  {
    version: 18,
    name: "an answer's long parts, stored as they stream",
    // A long answer was held by the run until its end, then written whole: its text, its JSON and sqlite's copies of
    // them at once (a 3 MB answer: `od run`'s peak 6.4 MB higher). Its long text and thinking parts now go here a
    // piece at a time as the run streams; the folded events keep each part's rest and its key (`pieced`), and
    // readers join the two (server/store/message-text.ts).
    sql: `
      CREATE TABLE message_text_pieces (
        message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
        part_key INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        text TEXT NOT NULL,
        PRIMARY KEY (message_id, part_key, seq)
      );
    `,
  },
  {
    version: 19,
    name: "the usage view's runs found by their index",
    // Migration 10's index on `started_at` was never used: the usage view asks for runs by when they started or, never
    // started, were created (`COALESCE(started_at, created_at)`, RunsRepo.usage), so sqlite read every run and sorted
    // them (50,000 runs: 34 ms a request). An index on that expression answers it from the newest (1 ms).
    sql: `
      DROP INDEX runs_by_started;
      CREATE INDEX runs_by_start_time ON runs(COALESCE(started_at, created_at));
    `,
  },
  {
    version: 20,
    name: "runs listed newest first from their indexes",
    // `GET /api/runs` lists the newest 500 runs, of a project, of a status or of all: only a conversation's were
    // indexed in that order. The others read every run, each with its last event id, and sorted them on the daemon's
    // event loop (50,000 runs: 14 ms for a project's, which the page's file list asks after each run; 53–55 ms for
    // all or by status). Indexed in that order, each reads its 500 (under 1 ms for a project's).
    sql: `
      CREATE INDEX runs_by_project ON runs(project_id, created_at);
      CREATE INDEX runs_by_creation ON runs(created_at);
      DROP INDEX runs_by_status;
      CREATE INDEX runs_by_status ON runs(status, created_at);
    `,
  },
];
