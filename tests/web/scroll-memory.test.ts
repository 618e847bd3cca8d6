/** Issue #40: where the reader left a conversation survives a reload; anything odd in storage is no position. */
import { describe, expect, test } from "bun:test";
import { loadScrollSpot, saveScrollSpot } from "../../web/state/scroll-memory.ts";

function memoryStorage(): Pick<Storage, "getItem" | "setItem"> {
  const values = new Map<string, string>();
  return { getItem: (key) => values.get(key) ?? null, setItem: (key, value) => void values.set(key, value) };
}

describe("scroll memory", () => {
  test("a saved spot comes back for its conversation only", () => {
    const storage = memoryStorage();
    saveScrollSpot(storage, "c1", { top: 1234.5, atBottom: false });
    expect(loadScrollSpot(storage, "c1")).toEqual({ top: 1234.5, atBottom: false });
    expect(loadScrollSpot(storage, "c2")).toBeNull();
  });

  test("malformed, negative or foreign values are no position (or clamped), never a throw", () => {
    const storage = memoryStorage();
    for (const bad of ["{", "null", "42", '{"top":"x","atBottom":false}', '{"top":1}', '{"top":1e999,"atBottom":true}']) {
      storage.setItem("od.scroll.c", bad);
      expect(loadScrollSpot(storage, "c")).toBeNull();
    }
    storage.setItem("od.scroll.c", '{"top":-5,"atBottom":true}');
    expect(loadScrollSpot(storage, "c")).toEqual({ top: 0, atBottom: true });
    expect(loadScrollSpot(undefined, "c")).toBeNull();
  });

  test("the row at the top comes back with the spot; an anchor of another shape is left out, not the spot", () => {
    const storage = memoryStorage();
    saveScrollSpot(storage, "c1", { top: 800, atBottom: false, anchor: { key: "msg_1", into: -11.75 } });
    expect(loadScrollSpot(storage, "c1")).toEqual({ top: 800, atBottom: false, anchor: { key: "msg_1", into: -11.75 } });
    for (const anchor of ['{"key":1,"into":0}', '{"key":"msg_1"}', '{"key":"msg_1","into":"x"}', '"msg_1"']) {
      storage.setItem("od.scroll.c2", `{"top":5,"atBottom":false,"anchor":${anchor}}`);
      expect(loadScrollSpot(storage, "c2")).toEqual({ top: 5, atBottom: false });
    }
  });

  test("a storage that refuses writes costs only the restore", () => {
    const full = { setItem: () => { throw new Error("QuotaExceededError"); } };
    expect(() => saveScrollSpot(full, "c", { top: 1, atBottom: false })).not.toThrow();
  });
});
