// A remote run's clean-up that did not finish with the run is stored with it (Issue #35): pending until a sweep
// reaches the location, its tries counted with the last reason, then done — and the run's summary reads it.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { RunSummary } from "../../server/contracts/runs.ts";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { Store } from "../../server/store/store.ts";
import { tempDir } from "../support/temp.ts";

function storeWithRuns(dir: string, ...runIds: string[]): Store {
  const store = Store.open(join(dir, "od.db"), openBunSqlite);
  const projectId = store.projects.create("p", "ssh://host/srv/app").id;
  const conversationId = store.conversations.create(projectId, "c").id;
  for (const id of runIds) store.runs.create({ id, projectId, conversationId, agentId: "claude", model: null, reasoning: null });
  return store;
}

test("a run's summary carries its clean-up: absent, pending with its tries, then done; it survives reopening the store", () => {
  using dir = tempDir("od-pending-sweeps-");
  const store = storeWithRuns(dir.path, "run_a", "run_b");
  expect(store.runs.get("run_a")).not.toHaveProperty("cleanup");

  store.pendingSweeps.record("run_a", "ssh://host/srv/app", 1000);
  store.pendingSweeps.record("run_b", "docker://box/app", 2000, "Container box is paused");
  expect(store.runs.get("run_a")!.cleanup).toEqual({ status: "pending", since: 1000, attempts: 0 });
  expect(store.runs.get("run_b")!.cleanup).toEqual({ status: "pending", since: 2000, attempts: 1, lastError: "Container box is paused" });
  // Recording again (a second od process, a recovery) keeps the first record.
  store.pendingSweeps.record("run_a", "ssh://host/srv/app", 5000);
  store.pendingSweeps.failed("run_a", "no answer within 33 s");
  expect(store.runs.get("run_a")!.cleanup).toEqual({ status: "pending", since: 1000, attempts: 1, lastError: "no answer within 33 s" });
  expect(store.pendingSweeps.pending()).toEqual([
    { runId: "run_a", location: "ssh://host/srv/app" },
    { runId: "run_b", location: "docker://box/app" },
  ]);
  store.close();

  const reopened = Store.open(join(dir.path, "od.db"), openBunSqlite);
  try {
    reopened.pendingSweeps.finished("run_a", 9000);
    // A late try that gave up does not undo a finished clean-up.
    reopened.pendingSweeps.failed("run_a", "too late");
    const done = reopened.runs.get("run_a")!;
    expect(done.cleanup).toEqual({ status: "done", since: 1000, attempts: 2, lastError: "no answer within 33 s", finishedAt: 9000 });
    expect(RunSummary.parse(done)).toEqual(done);
    expect(reopened.pendingSweeps.pending()).toEqual([{ runId: "run_b", location: "docker://box/app" }]);
    expect(reopened.runs.list({}).find((run) => run.id === "run_b")!.cleanup).toMatchObject({ status: "pending" });
  } finally {
    reopened.close();
  }
});
