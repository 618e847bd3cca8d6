// Lookups whose cost would grow with a store's history use an index. The usage view asks for finished runs newest
// first by when they started, or were created when they never started (RunsRepo.usage): sqlite answers that from the
// index on the same expression (migration 19), not by reading and sorting every run. A run's answer is found among its
// conversation's messages, not by reading every message (each one's folded events on the way to its run id). The
// newest runs of a project, a status or all are read from indexes in that order (migration 20), not sorted whole.
import { expect, test } from "bun:test";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { ANSWER_OF_RUN_SQL } from "../../server/store/projects-repo.ts";
import { runsListQuery, USAGE_SQL, type RunsFilter } from "../../server/store/runs-repo.ts";
import { Store } from "../../server/store/store.ts";

const planOf = (store: Store, sql: string, ...params: unknown[]) =>
  store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...(params as never[])).map((row) => String(row.detail)).join(" / ");

const ended = { exitCode: 0, signal: null, failureCategory: null, failureDetail: null, reason: null, errorCode: null, files: [] };

test("the usage view's runs come from their index, newest first, started or not", () => {
  const store = Store.open(":memory:", openBunSqlite);
  try {
    const plan = planOf(store, USAGE_SQL, 0, 10);
    expect(plan).toContain("USING INDEX runs_by_start_time");
    expect(plan).not.toContain("TEMP B-TREE");

    const projectId = store.projects.create("p", "/srv/app").id;
    const conversationId = store.conversations.create(projectId, "c").id;
    const at = (id: string, createdAt: number, startedAt: number | null, status: "succeeded" | "failed" | "running") => {
      store.runs.create({ id, projectId, conversationId, agentId: "claude", model: null, reasoning: null });
      if (status !== "running") store.runs.finish(id, { ...ended, status });
      store.db.prepare("UPDATE runs SET created_at = ?, started_at = ?, status = ? WHERE id = ?").run(createdAt, startedAt, status, id);
    };
    at("run_old", 1000, 1500, "succeeded");
    at("run_never_started", 3000, null, "failed");
    at("run_new", 2000, 4000, "succeeded");
    at("run_live", 5000, 5000, "running");
    expect(store.runs.usage({}).map((run) => run.runId)).toEqual(["run_new", "run_never_started", "run_old"]);
    expect(store.runs.usage({ since: 2500, limit: 1 }).map((run) => run.runId)).toEqual(["run_new"]);
  } finally {
    store.close();
  }
});

test("a run's answer is found through its conversation's messages, the newest answer of the run", () => {
  const store = Store.open(":memory:", openBunSqlite);
  try {
    const plan = planOf(store, ANSWER_OF_RUN_SQL, "run_a");
    expect(plan).toContain("SEARCH m USING INDEX messages_by_conversation");
    expect(plan).not.toMatch(/SCAN (m|messages)\b/);
    expect(plan).not.toContain("TEMP B-TREE");

    const projectId = store.projects.create("p", "/srv/app").id;
    const conversationId = store.conversations.create(projectId, "c").id;
    store.runs.create({ id: "run_a", projectId, conversationId, agentId: "claude", model: null, reasoning: null });
    store.messages.add({ conversationId, role: "user", text: "q", runId: "run_a" });
    const answer = store.messages.add({ conversationId, role: "assistant", text: "", runId: "run_a" });
    store.messages.add({ conversationId, role: "assistant", text: "", runId: "run_other" });
    expect(store.messages.ofRun("run_a")).toBe(answer);
    expect(store.messages.ofRun("run_none")).toBeUndefined();
  } finally {
    store.close();
  }
});

test("the newest runs, of a project, a conversation, a status or all, are read from an index in their order", () => {
  const store = Store.open(":memory:", openBunSqlite);
  try {
    const planOfList = (filter: RunsFilter) => {
      const { sql, params } = runsListQuery(filter);
      return planOf(store, sql, ...params);
    };
    const ordered: [RunsFilter, string][] = [
      [{}, "runs_by_creation"],
      [{ projectId: "p" }, "runs_by_project"],
      [{ conversationId: "c" }, "runs_by_conversation"],
      [{ status: "succeeded" }, "runs_by_status"],
      [{ conversationId: "c", status: "active" }, "runs_by_conversation"],
    ];
    for (const [filter, index] of ordered) {
      const plan = planOfList(filter);
      expect(plan).toContain(`USING INDEX ${index}`);
      expect(plan).not.toContain("TEMP B-TREE");
    }
    // The active runs (a handful) come from the status's index, whatever else is asked, then are sorted.
    for (const filter of [{ status: "active" }, { projectId: "p", status: "active" }] as RunsFilter[]) expect(planOfList(filter)).toContain("SEARCH runs USING INDEX runs_by_status");
  } finally {
    store.close();
  }
});
