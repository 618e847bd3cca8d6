/** The sidebar lists a project's newest conversations a page at a time, and the open one wherever it is. */
import { describe, expect, test } from "bun:test";
import { CONVERSATIONS_PAGE, conversationsShown } from "../../web/lib/conversations-shown.ts";

const list = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `c${i}` }));
const ids = (items: Array<{ id: string }>) => items.map((item) => item.id);

describe("conversations shown in the sidebar", () => {
  test("a project with a page of conversations or fewer lists them all, in order", () => {
    expect(conversationsShown(list(3), "c1", CONVERSATIONS_PAGE)).toEqual({ shown: list(3), hidden: 0 });
    expect(conversationsShown(list(CONVERSATIONS_PAGE), null, CONVERSATIONS_PAGE).hidden).toBe(0);
  });

  test("beyond that, the newest page, and how many are left out", () => {
    const { shown, hidden } = conversationsShown(list(1000), "c3", CONVERSATIONS_PAGE);
    expect(ids(shown)).toEqual(ids(list(CONVERSATIONS_PAGE)));
    expect(hidden).toBe(1000 - CONVERSATIONS_PAGE);
  });

  test("an open conversation older than the page is listed too, after it", () => {
    const { shown, hidden } = conversationsShown(list(200), "c150", CONVERSATIONS_PAGE);
    expect(ids(shown)).toEqual([...ids(list(CONVERSATIONS_PAGE)), "c150"]);
    expect(hidden).toBe(200 - CONVERSATIONS_PAGE - 1);
  });

  test("'Show more' raises the limit a page at a time until none is left out", () => {
    expect(conversationsShown(list(120), null, 2 * CONVERSATIONS_PAGE).hidden).toBe(20);
    expect(conversationsShown(list(120), null, 3 * CONVERSATIONS_PAGE)).toEqual({ shown: list(120), hidden: 0 });
  });
});
