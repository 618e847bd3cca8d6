// A row's first guess is made once per item object: a finished turn's rows are guessed for the turn's height and again
// for its list's offsets (web/components/row-heights.ts), and opening a long run from history guessed thousands twice.
import { describe, expect, test } from "bun:test";
import { estimateItem, estimateRun } from "../../web/components/row-heights.ts";
import type { SectionOpen } from "../../web/state/disclosures.ts";
import { emptyRunState, type RunItem, type ToolItem } from "../../web/state/run-state.ts";

const GAP = 8;

function tool(key: string, result: string): ToolItem {
  return { kind: "tool", key, id: key, name: "Bash", toolKind: "command", input: { command: "ls" }, inputDraft: "", result, state: "done" };
}

/** The reader's kept choices (every section as it opens by itself), counting how often they are asked. */
function countingSections() {
  const asked = { count: 0 };
  const sections: SectionOpen = (_rowKey, _section, byDefault) => {
    asked.count++;
    return byDefault;
  };
  return { asked, sections };
}

describe("row guesses", () => {
  test("an item guessed for its turn is not guessed again for its list", () => {
    const items: RunItem[] = Array.from({ length: 50 }, (_, i) => tool(`t${i}`, Array.from({ length: 10 }, (__, line) => `line ${line}`).join("\n")));
    const { asked, sections } = countingSections();
    const turn = estimateRun({ ...emptyRunState("r1"), items }, GAP, sections);
    const askedForTurn = asked.count;
    expect(askedForTurn).toBeGreaterThan(0);
    const rows = items.map((item) => estimateItem(item, GAP, sections));
    expect(asked.count).toBe(askedForTurn);
    expect(rows.every((px) => px > GAP)).toBe(true);
    expect(turn).toBeGreaterThan(rows.reduce((sum, px) => sum + px, 0));
  });

  test("a changed row (a new object) and another gap are guessed afresh, with the same answer for the same row", () => {
    const before: RunItem = { kind: "text", key: "x1", text: "A short answer." };
    const first = estimateItem(before, GAP);
    const after: RunItem = { ...before, text: Array.from({ length: 12 }, (_, i) => `Paragraph ${i} of a longer answer.`).join("\n\n") };
    expect(estimateItem(after, GAP)).toBeGreaterThan(first);
    expect(estimateItem(before, GAP + 10)).toBe(first + 10);
    expect(estimateItem(before, GAP)).toBe(first);
    expect(estimateItem({ ...before }, GAP)).toBe(first);
  });
});
