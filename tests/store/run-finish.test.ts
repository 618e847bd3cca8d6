// A run's end: its outcome and the usage its CLI reported are one statement, so they are stored together (one commit,
// not two) or not at all, and a run without usage keeps its figures null.
import { expect, test } from "bun:test";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { Store } from "../../server/store/store.ts";

function storeWithRun(): Store {
  const store = Store.open(":memory:", openBunSqlite);
  const projectId = store.projects.create("p", "/srv/app").id;
  const conversationId = store.conversations.create(projectId, "c").id;
  store.runs.create({ id: "run_a", projectId, conversationId, agentId: "claude", model: null, reasoning: null });
  return store;
}

const changes = (store: Store) => Number(store.db.prepare("SELECT total_changes() AS n").get()?.n);
const ending = { status: "succeeded", exitCode: 0, signal: null, failureCategory: null, failureDetail: null, reason: null, errorCode: null, files: ["a.txt"] } as const;

test("a run's outcome and usage are written by one statement", () => {
  const store = storeWithRun();
  try {
    const before = changes(store);
    store.runs.finish("run_a", { ...ending, files: [...ending.files], usage: { inputTokens: 12, outputTokens: 34, costUsd: 0.5, reportedModel: "m-1" } });
    expect(changes(store) - before).toBe(1);
    expect(store.runs.get("run_a")).toMatchObject({ status: "succeeded", exitCode: 0 });
    expect(store.runs.usageOf("run_a")).toMatchObject({ inputTokens: 12, outputTokens: 34, costUsd: 0.5, model: "m-1", status: "succeeded" });
  } finally {
    store.close();
  }
});

test("a run that ended without usage keeps its figures null", () => {
  const store = storeWithRun();
  try {
    store.runs.finish("run_a", { ...ending, files: [], status: "failed", reason: "gone" });
    expect(store.runs.get("run_a")).toMatchObject({ status: "failed" });
    expect(store.runs.usageOf("run_a")).toMatchObject({ inputTokens: null, outputTokens: null, costUsd: null, model: null });
  } finally {
    store.close();
  }
});
