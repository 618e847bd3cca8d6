// The run event log in sqlite: events are written several rows per statement (EVENT_ROWS_PER_INSERT), and every
// batch size, across and at the chunk boundaries, reads back whole, in order, each id once (the first write wins).
import { expect, test } from "bun:test";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { toLoggedEvent, type LoggedEvent } from "../../server/store/event-json.ts";
import { EVENT_ROWS_PER_INSERT } from "../../server/store/runs-repo.ts";
import { Store } from "../../server/store/store.ts";

const event = (id: number, message: string): LoggedEvent => toLoggedEvent({ id, ts: id, type: "diagnostic", kind: "test", message });

test("batches of every size around the rows per statement are stored whole and in order", () => {
  const store = Store.open(":memory:", openBunSqlite);
  try {
    const sizes = [1, EVENT_ROWS_PER_INSERT - 1, EVENT_ROWS_PER_INSERT, EVENT_ROWS_PER_INSERT + 1, 2 * EVENT_ROWS_PER_INSERT, 2 * EVENT_ROWS_PER_INSERT + 5, 0];
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
