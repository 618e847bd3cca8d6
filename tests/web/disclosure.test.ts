/**
 * Issue #40: a closed section of a tool card or a changed file puts no body in the DOM (a closed 400-line diff was
 * 400 spans), and what the reader opened or closed outlives its row leaving the windowed list.
 */
import { describe, expect, test } from "bun:test";
import { h } from "preact";
import { ToolCard } from "../../web/components/tool-card.tsx";
import { DisclosureScope } from "../../web/components/disclosure.tsx";
import { chooseDisclosed, isDisclosed } from "../../web/state/disclosures.ts";
import type { ToolItem } from "../../web/state/run-state.ts";
import { vnodeToHtml } from "../support/web-vnode-html.ts";

const write = (key: string, lines: number): ToolItem => ({
  kind: "tool",
  key,
  id: key,
  name: "Edit",
  toolKind: "file_edit",
  path: "a.txt",
  input: { file_path: "/p/a.txt", old_string: "", new_string: Array.from({ length: lines }, (_, i) => `line ${i}`).join("\n") },
  inputDraft: "",
  state: "done",
});

const card = (run: string, tool: ToolItem) => vnodeToHtml(h(DisclosureScope.Provider, { value: run, children: h(ToolCard, { tool }) }));
const spans = (html: string) => html.split('class="diff-line').length - 1;

describe("sections rendered only while open", () => {
  test("a short diff opens by itself with its lines; a long one is its summary alone", () => {
    expect(spans(card("run-a", write("short", 3)))).toBe(3);
    const long = card("run-a", write("long", 300));
    expect(long).toContain("Diff <span class=\"diff-added\">+300</span>");
    expect(spans(long)).toBe(0);
    expect(long).not.toContain("line 299");
  });

  test("a section the reader opened stays open, and one they closed stays closed, in its own run only", () => {
    chooseDisclosed("run-b\nlong\ndiff", true);
    expect(spans(card("run-b", write("long", 300)))).toBe(300);
    // The same call's key in another run is another section.
    expect(spans(card("run-c", write("long", 300)))).toBe(0);
    chooseDisclosed("run-b\nshort\ndiff", false);
    expect(spans(card("run-b", write("short", 3)))).toBe(0);
    chooseDisclosed("run-b\nshort\ndiff", true);
    expect(spans(card("run-b", write("short", 3)))).toBe(3);
  });

  test("a section never chosen follows its default as it changes", () => {
    expect(isDisclosed("run-d\nx\noutput", true)).toBe(true);
    expect(isDisclosed("run-d\nx\noutput", false)).toBe(false);
    chooseDisclosed("run-d\nx\noutput", true);
    expect(isDisclosed("run-d\nx\noutput", false)).toBe(true);
  });
});
