// With checkpoints deferred (the daemon), a streaming run's commits stay in the WAL (no checkpoint, with its fsyncs,
// inside a commit on the event loop) until the daemon checkpoints once the run has ended.
import { expect, test } from "bun:test";
import { statSync } from "node:fs";
import { join } from "node:path";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { toLoggedEvent } from "../../server/store/event-json.ts";
import { createServices } from "../../server/services.ts";
import { DEFERRED_CHECKPOINT_PAGES, Store } from "../../server/store/store.ts";
import type { RunEvent } from "../../server/contracts/runs.ts";
import { tempDir } from "../support/temp.ts";

test("a run's event batches stay in the WAL until the store checkpoints", () => {
  using dir = tempDir("od-checkpoint-");
  const path = join(dir.path, "od.db");
  const store = Store.open(path, openBunSqlite);
  store.deferCheckpoints();
  try {
    const before = statSync(path).size;
    // ~8 MB of events in 10 ms batches' worth of rows: two of sqlite's default checkpoints' worth.
    let id = 0;
    const text = "x".repeat(100);
    for (let batch = 0; batch < 160; batch++) {
      const events = Array.from({ length: 500 }, () => toLoggedEvent({ type: "diagnostic", kind: "test", message: text, id: ++id, ts: id } as unknown as RunEvent));
      store.runs.appendEvents("run_1", events);
    }
    expect(statSync(`${path}-wal`).size).toBeGreaterThan(8 * 1024 * 1024);
    expect(statSync(path).size).toBe(before);
    store.checkpoint();
    expect(statSync(path).size).toBeGreaterThan(before + 8 * 1024 * 1024);
    expect(store.runs.eventsAfter("run_1", id - 1)).toHaveLength(1);
  } finally {
    store.close();
  }
});

test("the daemon's services defer checkpoints; od run's keep sqlite's own", () => {
  using dir = tempDir("od-checkpoint-services-");
  const autocheckpoint = (checkpointAfterRuns: boolean) => {
    const store = Store.open(join(dir.path, `od-${checkpointAfterRuns}.db`), openBunSqlite);
    try {
      createServices({ store, dataDir: dir.path, env: { PATH: "/usr/bin:/bin", HOME: dir.path }, checkpointAfterRuns });
      return Number(store.db.prepare("PRAGMA wal_autocheckpoint").get()?.wal_autocheckpoint);
    } finally {
      store.close();
    }
  };
  expect(autocheckpoint(true)).toBe(DEFERRED_CHECKPOINT_PAGES);
  expect(autocheckpoint(false)).toBe(1000);
});
