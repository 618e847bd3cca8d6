/** Side panels list the newest page of a long list (conversations, files), and the open item wherever it is. */
import { describe, expect, test } from "bun:test";
import { newestPage, PANEL_PAGE } from "../../web/lib/newest-page.ts";

const list = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `c${i}` }));
const ids = (items: Array<{ id: string }>) => items.map((item) => item.id);
const opened = (id: string | null) => (item: { id: string }) => item.id === id;

describe("a side panel's newest page", () => {
  test("a list of a page or fewer is shown whole, in order", () => {
    expect(newestPage(list(3), PANEL_PAGE, opened("c1"))).toEqual({ shown: list(3), hidden: 0 });
    expect(newestPage(list(PANEL_PAGE), PANEL_PAGE).hidden).toBe(0);
  });

  test("beyond that, the newest page, and how many are left out", () => {
    const { shown, hidden } = newestPage(list(1000), PANEL_PAGE, opened("c3"));
    expect(ids(shown)).toEqual(ids(list(PANEL_PAGE)));
    expect(hidden).toBe(1000 - PANEL_PAGE);
  });

  test("an open item older than the page is shown too, after it", () => {
    const { shown, hidden } = newestPage(list(200), PANEL_PAGE, opened("c150"));
    expect(ids(shown)).toEqual([...ids(list(PANEL_PAGE)), "c150"]);
    expect(hidden).toBe(200 - PANEL_PAGE - 1);
  });

  test("'Show more' raises the limit a page at a time until none is left out", () => {
    expect(newestPage(list(120), 2 * PANEL_PAGE).hidden).toBe(20);
    expect(newestPage(list(120), 3 * PANEL_PAGE)).toEqual({ shown: list(120), hidden: 0 });
  });
});
