// Which rows a windowed list keeps in the DOM (web/components/list-window.ts): a live run's appended rows are shown in
// the render that adds them, and the window moves (a second render and layout in that frame) only when it must.
import { describe, expect, test } from "bun:test";
import { firstDifference, firstEndingAfter, firstWindow, grownWindow, mustMove, SLACK_ROWS, updateOffsets, WHOLE_UP_TO } from "../../web/components/list-window.ts";

describe("grownWindow", () => {
  test("a window that reached the end of the list keeps reaching it as rows are appended", () => {
    expect(grownWindow({ start: 100, end: 140 }, 140, 141)).toEqual({ start: 100, end: 141 });
    expect(grownWindow({ start: 100, end: 140 }, 140, 150)).toEqual({ start: 100, end: 150 });
  });

  test("a window above the end, or a list that did not grow, stays as it was", () => {
    const above = { start: 10, end: 40 };
    expect(grownWindow(above, 140, 141)).toBe(above);
    const atEnd = { start: 100, end: 140 };
    expect(grownWindow(atEnd, 140, 140)).toBe(atEnd);
    expect(grownWindow(atEnd, 140, 120)).toBe(atEnd);
    expect(grownWindow({ start: 0, end: 0 }, 0, 5)).toEqual({ start: 0, end: 0 });
  });
});

describe("mustMove", () => {
  test("moves when the viewport needs rows the window lacks, on either side", () => {
    expect(mustMove({ start: 100, end: 140 }, { start: 99, end: 130 })).toBe(true);
    expect(mustMove({ start: 100, end: 140 }, { start: 110, end: 141 })).toBe(true);
  });

  test("keeps a window that holds what is needed and at most SLACK_ROWS more", () => {
    expect(mustMove({ start: 100, end: 140 }, { start: 100, end: 140 })).toBe(false);
    expect(mustMove({ start: 100, end: 140 }, { start: 100 + SLACK_ROWS, end: 140 })).toBe(false);
    expect(mustMove({ start: 100, end: 140 }, { start: 100 + SLACK_ROWS + 1, end: 140 })).toBe(true);
    expect(mustMove({ start: 100, end: 160 }, { start: 110, end: 130 })).toBe(true);
  });

  test("a live run's appends cost one extra render per SLACK_ROWS rows, not one per row", () => {
    // The viewport follows the bottom and shows the last 20 rows; the run appends one row at a time.
    let shown = { start: 80, end: 100 };
    let moves = 0;
    for (let length = 101; length <= 1_100; length++) {
      shown = grownWindow(shown, length - 1, length);
      const wanted = { start: length - 20, end: length };
      if (mustMove(shown, wanted)) {
        shown = wanted;
        moves++;
      }
    }
    expect(moves).toBe(Math.floor(1_000 / (SLACK_ROWS + 1)));
  });
});

describe("firstWindow and firstEndingAfter", () => {
  test("a short list is shown whole; a long one starts with a few rows at the end the viewport is at", () => {
    expect(firstWindow(WHOLE_UP_TO, true)).toEqual({ start: 0, end: WHOLE_UP_TO });
    expect(firstWindow(500, true)).toEqual({ start: 488, end: 500 });
    expect(firstWindow(500, false)).toEqual({ start: 0, end: 12 });
  });

  test("finds the first row whose bottom lies below a point", () => {
    const offsets = [0, 10, 30, 60, 100];
    expect(firstEndingAfter(offsets, -5)).toBe(0);
    expect(firstEndingAfter(offsets, 10)).toBe(1);
    expect(firstEndingAfter(offsets, 31)).toBe(2);
    expect(firstEndingAfter(offsets, 1_000)).toBe(3);
  });
});

describe("offsets worked out again from the first row that changed", () => {
  const a = { h: 10 };
  const b = { h: 20 };
  const c = { h: 30 };

  test("firstDifference: where two lists part, by identity", () => {
    expect(firstDifference([a, b, c], [a, b, c])).toBe(3);
    expect(firstDifference([a, b], [a, b, c])).toBe(2);
    expect(firstDifference([a, b, c], [a, { h: 20 }, c])).toBe(1);
    expect(firstDifference([a, b, c], [a])).toBe(1);
    expect(firstDifference([], [a])).toBe(0);
  });

  test("updateOffsets keeps the offsets before `from` and sums the rest, for a list that grew, changed or shrank", () => {
    const rows = [a, b, c];
    const offsets: number[] = [];
    const asked: number[] = [];
    const sizeOf = (i: number) => {
      asked.push(i);
      return rows[i]!.h;
    };
    updateOffsets(offsets, rows.length, 0, sizeOf);
    expect(offsets).toEqual([0, 10, 30, 60]);
    // A row appended: only it is asked for.
    rows.push({ h: 5 });
    asked.length = 0;
    updateOffsets(offsets, rows.length, 3, sizeOf);
    expect(asked).toEqual([3]);
    expect(offsets).toEqual([0, 10, 30, 60, 65]);
    // The last row grew (a streaming text): from it on.
    rows[3] = { h: 15 };
    updateOffsets(offsets, rows.length, 3, sizeOf);
    expect(offsets).toEqual([0, 10, 30, 60, 75]);
    // The list shrank.
    rows.length = 2;
    updateOffsets(offsets, rows.length, 2, sizeOf);
    expect(offsets).toEqual([0, 10, 30]);
  });
});
