// The run event log in sqlite: a row per flushed batch (its events' JSON lines). Every batch size reads back whole, in
// order, each id once (the first write wins), and a page cut by count or characters starts inside a row where asked.
import { expect, test } from "bun:test";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { toLoggedEvent, type LoggedEvent } from "../../server/store/event-json.ts";
import { join } from "node:path";
import { setUpDatabase } from "../../server/store/database-setup.ts";
import { MIGRATIONS } from "../../server/store/migrations.ts";
import { Store } from "../../server/store/store.ts";
import { tempDir } from "../support/temp.ts";

const event = (id: number, message: string): LoggedEvent => toLoggedEvent({ id, ts: id, type: "diagnostic", kind: "test", message });

test("batches of every size are stored whole and in order", () => {
  const store = Store.open(":memory:", openBunSqlite);
  try {
    const sizes = [1, 31, 32, 33, 64, 69, 0, 500];
    let next = 1;
    for (const size of sizes) {
      store.runs.appendEvents("run_1", Array.from({ length: size }, () => event(next, `event ${next++}`)));
    }
    const stored = store.runs.eventsAfter("run_1", 0, 100_000);
    expect(stored.map((e) => e.id)).toEqual(Array.from({ length: next - 1 }, (_, i) => i + 1));
    expect(stored.map((e) => JSON.parse(e.json).message)).toEqual(Array.from({ length: next - 1 }, (_, i) => `event ${i + 1}`));
    expect(store.runs.eventsAfter("run_2", 0)).toEqual([]);
  } finally {
    store.close();
  }
});

test("an event written again (a replayed batch) keeps its first form; the new ids of the batch are added", () => {
  const store = Store.open(":memory:", openBunSqlite);
  try {
    store.runs.appendEvents("run_1", Array.from({ length: 40 }, (_, i) => event(i + 1, "first")));
    store.runs.appendEvents("run_1", Array.from({ length: 40 }, (_, i) => event(i + 21, "second")));
    const stored = store.runs.eventsAfter("run_1", 0);
    expect(stored.map((e) => e.id)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(stored.map((e) => JSON.parse(e.json).message)).toEqual([...Array(40).fill("first"), ...Array(20).fill("second")]);
  } finally {
    store.close();
  }
});

test("a run recovered by another od after its end keeps the first form too: the writer reads the stored ids again", () => {
  using temp = tempDir("od-run-events-writers-");
  const path = join(temp.path, "od.db");
  const owner = Store.open(path, openBunSqlite);
  const recoverer = Store.open(path, openBunSqlite);
  try {
    const end = (id: number): LoggedEvent => toLoggedEvent({ id, ts: id, type: "end", status: "failed", code: null, signal: null, reason: "x", files: [], durationMs: 1 });
    owner.runs.appendEvents("run_1", [event(1, "owner"), event(2, "owner")]);
    owner.runs.appendEvents("run_1", [event(3, "owner"), end(4)]);
    recoverer.runs.appendEvents("run_1", [event(3, "recoverer"), event(4, "recoverer"), event(5, "recoverer")]);
    // Once a run has ended its writer no longer assumes it is the only one: a later batch is checked against sqlite.
    owner.runs.appendEvents("run_1", [event(5, "owner"), event(6, "owner")]);
    const stored = owner.runs.eventsAfter("run_1", 0);
    expect(stored.map((e) => e.id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(stored.map((e) => (JSON.parse(e.json) as { message?: string }).message ?? "end")).toEqual(["owner", "owner", "owner", "end", "recoverer", "owner"]);
  } finally {
    recoverer.close();
    owner.close();
  }
});

test("pages start after any id, inside a row, and stop at the count or once they reach the characters asked", () => {
  const store = Store.open(":memory:", openBunSqlite);
  try {
    for (let first = 1; first <= 100; first += 10) store.runs.appendEvents("run_1", Array.from({ length: 10 }, (_, i) => event(first + i, "x".repeat(100))));
    const ids = (page: LoggedEvent[]) => page.map((e) => e.id);
    expect(ids(store.runs.eventsAfter("run_1", 35, 7))).toEqual([36, 37, 38, 39, 40, 41, 42]);
    expect(ids(store.runs.eventsAfter("run_1", 95))).toEqual([96, 97, 98, 99, 100]);
    expect(store.runs.eventsAfter("run_1", 100)).toEqual([]);
    const size = event(1, "x".repeat(100)).json.length;
    // Reaching the limit ends the page; an event larger than the whole limit still comes alone.
    expect(ids(store.runs.eventsAfter("run_1", 12, 100, 3 * size))).toEqual([13, 14, 15]);
    expect(ids(store.runs.eventsAfter("run_1", 12, 100, 3 * size - 1))).toEqual([13, 14, 15]);
    expect(ids(store.runs.eventsAfter("run_1", 12, 100, 1))).toEqual([13]);
    expect(store.runs.lastEventId("run_1")).toBe(100);
  } finally {
    store.close();
  }
});

test("an od.db from before stores its events again as one-event rows, readable as before", () => {
  using dir = tempDir("od-events-migration-");
  const path = join(dir.path, "od.db");
  const old = setUpDatabase(openBunSqlite(path), MIGRATIONS.filter((migration) => migration.version < 8));
  old.exec("INSERT INTO run_events (run_id, id, json) VALUES " + [2, 1, 3].map((id) => `('run_1', ${id}, '${event(id, `old ${id}`).json}')`).join(", "));
  old.close();
  const store = Store.open(path, openBunSqlite);
  try {
    expect(store.runs.eventsAfter("run_1", 0).map((e) => JSON.parse(e.json).message)).toEqual(["old 1", "old 2", "old 3"]);
    expect(store.runs.lastEventId("run_1")).toBe(3);
    store.runs.appendEvents("run_1", [event(3, "again"), event(4, "new")]);
    expect(store.runs.eventsAfter("run_1", 1).map((e) => JSON.parse(e.json).message)).toEqual(["old 2", "old 3", "new"]);
  } finally {
    store.close();
  }
});

test("a run created by this store appends its first events without reading back what it has stored", () => {
  const statements: string[] = [];
  const store = Store.open(":memory:", (path, options) => {
    const db = openBunSqlite(path, options);
    return { ...db, prepare: (sql) => (statements.push(sql), db.prepare(sql)) };
  });
  try {
    const projectId = store.projects.create("p", "/srv/app").id;
    const conversationId = store.conversations.create(projectId, "c").id;
    store.runs.create({ id: "run_new", projectId, conversationId, agentId: "claude", model: null, reasoning: null });
    statements.length = 0;
    store.runs.appendEvents("run_new", [event(1, "first"), event(2, "second")]);
    expect(statements.filter((sql) => sql.startsWith("SELECT"))).toEqual([]);
    expect(store.runs.eventsAfter("run_new", 0).map((e) => e.id)).toEqual([1, 2]);
    // A run this store did not create (another process's, recovered here) is read back first: ids already stored stay.
    store.runs.appendEvents("run_other", [event(1, "kept")]);
    const other = Store.over(store.db);
    other.runs.appendEvents("run_other", [event(1, "again"), event(2, "new")]);
    expect(other.runs.eventsAfter("run_other", 0).map((e) => JSON.parse(e.json).message)).toEqual(["kept", "new"]);
  } finally {
    store.close();
  }
});
