/**
 * Issue #40: what a reader opened, closed or half-typed outlives a reload of the tab (sessionStorage); anything odd
 * in storage is no memory, and a storage that refuses writes costs only the memory across reloads.
 */
import { describe, expect, test } from "bun:test";
import { createDisclosures } from "../../web/state/disclosures.ts";
import { tabMemory } from "../../web/state/tab-memory.ts";
import { isText, isTextLists, isTexts } from "../../web/components/kept-state.ts";

function memoryStorage(): Pick<Storage, "getItem" | "setItem"> & { values: Map<string, string> } {
  const values = new Map<string, string>();
  return { values, getItem: (key) => values.get(key) ?? null, setItem: (key, value) => void values.set(key, value) };
}

describe("tab memory", () => {
  test("what one page kept, the next page of the tab reads back; a deleted key is gone from both", () => {
    const storage = memoryStorage();
    const before = tabMemory("drafts", 10, () => storage);
    before.set("run-1\na-1\nmessage", "not this file, please");
    before.set("run-1\na-2\nown", ["Postgres 16"]);
    before.delete("run-1\na-1\nmessage");
    const after = tabMemory("drafts", 10, () => storage);
    expect(after.get("run-1\na-2\nown")).toEqual(["Postgres 16"]);
    expect(after.get("run-1\na-1\nmessage")).toBeUndefined();
    // Each memory has its own item.
    expect(tabMemory("disclosed", 10, () => storage).get("run-1\na-2\nown")).toBeUndefined();
  });

  test("past its limit, the key set longest ago goes first; setting a key again makes it the newest", () => {
    const storage = memoryStorage();
    const memory = tabMemory("disclosed", 3, () => storage);
    for (const key of ["a", "b", "c"]) memory.set(key, true);
    memory.set("a", false);
    memory.set("d", true);
    const reread = tabMemory("disclosed", 3, () => storage);
    expect(["a", "b", "c", "d"].map((key) => reread.get(key))).toEqual([false, undefined, true, true]);
    expect(JSON.parse(storage.values.get("od.disclosed")!)).toHaveLength(3);
  });

  test("a stored text that does not parse, or pairs of another shape, are no memory, never a throw", () => {
    const storage = memoryStorage();
    for (const bad of ["{", "null", "42", '{"a":true}', '[["a"]]', "[[1,true]]"]) {
      storage.values.set("od.disclosed", bad);
      expect(tabMemory("disclosed", 10, () => storage).get("a")).toBeUndefined();
    }
    storage.values.set("od.disclosed", '[["a",true],"junk",["b"],["c",false]]');
    const memory = tabMemory("disclosed", 10, () => storage);
    expect([memory.get("a"), memory.get("b"), memory.get("c")]).toEqual([true, undefined, false]);
  });

  test("without a storage, or with one that refuses writes, the page still keeps what it was given", () => {
    const none = tabMemory("drafts", 10, () => undefined);
    none.set("k", "typed");
    expect(none.get("k")).toBe("typed");
    const full = tabMemory("drafts", 10, () => ({ getItem: () => null, setItem: () => { throw new Error("QuotaExceededError"); } }));
    full.set("k", "typed");
    expect(full.get("k")).toBe("typed");
  });
});

describe("kept choices and drafts across a reload", () => {
  test("a section the reader opened or closed is so on the next page of the tab; a section never chosen follows its default", () => {
    const storage = memoryStorage();
    const before = createDisclosures(tabMemory("disclosed", 10, () => storage));
    before.chooseDisclosed("run-1\ntool-1\ndiff", true);
    before.chooseDisclosed("run-1\ntool-2\noutput", false);
    const after = createDisclosures(tabMemory("disclosed", 10, () => storage));
    expect(after.isDisclosed("run-1\ntool-1\ndiff", false)).toBe(true);
    expect(after.isDisclosed("run-1\ntool-2\noutput", true)).toBe(false);
    expect(after.isDisclosed("run-1\ntool-3\ndiff", true)).toBe(true);
    // A stored value that is not a choice is no choice.
    storage.values.set("od.disclosed", '[["run-1\\ntool-1\\ndiff","yes"]]');
    expect(createDisclosures(tabMemory("disclosed", 10, () => storage)).isDisclosed("run-1\ntool-1\ndiff", false)).toBe(false);
  });

  test("a run's row guesses read its sections as the reader left them, in that run only", () => {
    const storage = memoryStorage();
    createDisclosures(tabMemory("disclosed", 10, () => storage)).chooseDisclosed("run-1\ntool-1\ndiff", true);
    const after = createDisclosures(tabMemory("disclosed", 10, () => storage));
    expect(after.sectionsOf("run-1")("tool-1", "diff", false)).toBe(true);
    expect(after.sectionsOf("run-1")("tool-1", "output", false)).toBe(false);
    expect(after.sectionsOf("run-2")("tool-1", "diff", false)).toBe(false);
  });

  test("a kept draft is used only in the shape its card expects", () => {
    expect(isText("a reason")).toBe(true);
    expect(isText(["a reason"])).toBe(false);
    expect(isTexts(2)(["", "Postgres 16"])).toBe(true);
    expect(isTexts(2)(["only one"])).toBe(false);
    expect(isTexts(1)([42])).toBe(false);
    expect(isTextLists(2)([["SQLite"], []])).toBe(true);
    expect(isTextLists(2)([["SQLite"], [1]])).toBe(false);
    expect(isTextLists(1)(["SQLite"])).toBe(false);
  });
});
