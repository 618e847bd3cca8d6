/**
 * A list that keeps only the rows near the viewport in the DOM: a 100k-event run or a 50-turn conversation would
 * otherwise put tens of thousands of elements on the page and lay them all out on every change. Rows off screen
 * stand in as padding of their measured height (or an estimate until they were shown once), so the scrollbar,
 * scrolling to the top and the browser's own scroll anchoring keep working. Lists nest: each one works out its
 * window against the same scroller (the conversation's timeline), given through ScrollerContext.
 */
import { createContext, Fragment, type VNode } from "preact";
import { useContext, useEffect, useLayoutEffect, useReducer, useRef } from "preact/hooks";
import { firstDifference, firstEndingAfter, firstWindow, grownWindow, mustMove, updateOffsets, WHOLE_UP_TO, type Window } from "./list-window.ts";

/** The scrolling element rows are windowed against, and what to call after rows changed size (stick to bottom). */
export interface Scroller {
  element(): HTMLElement | null;
  /** Rows were added, removed or re-measured: the scroller may need to follow the bottom. */
  changed(): void;
  /** Whether it keeps the bottom in view (then a list first shows its last rows, not its first). */
  followsBottom(): boolean;
}

export const ScrollerContext = createContext<Scroller | null>(null);

/** Where a list's rows are in its scroller, by key: what a place kept across a reload is anchored to. */
export interface ListPlaces {
  /**
   * The first row that starts at or below the scroller's `scrollTop` (the last row when none does), and how far from
   * its top `scrollTop` is (negative: above it). A row's top is a boundary between rows the reader sees; a place
   * inside a long row would move with that row's own guesses.
   */
  rowAt(scrollTop: number): { key: string; into: number } | undefined;
  /** The scrollTop that puts `into` px of the row `key` at the scroller's top, from the heights known now. */
  scrollTopOf(key: string, into: number): number | undefined;
}

/** How far beyond the viewport (px, each side) rows are kept in the DOM, so a fast scroll rarely shows padding. */
const OVERSCAN_PX = 800;

export interface VirtualListProps<T> {
  items: readonly T[];
  keyOf(item: T): string;
  /** A row's height (px, the parent's gap included) before it was ever shown. */
  estimate(item: T): number;
  /**
   * The same row object always has the same estimate (it depends on nothing else): offsets are then worked out again
   * only from the first row that changed. Without it (an estimate that reads state beside the row), all of them.
   */
  stableEstimates?: boolean;
  /** Exactly one element per row (rows are measured element by element, between the two spacers). */
  render(item: T): VNode;
  /**
   * What a row's height depends on besides its key, when that can change while the row is off screen (a finished
   * turn whose events arrive after it scrolled away): a height measured for another version is not used, the row is
   * guessed again until it is shown.
   */
  versionOf?(item: T): unknown;
  /** Filled in with this list's `ListPlaces` on every render. */
  places?: { current: ListPlaces | null };
}

/**
 * The rows in view, between two spacers, straight in the parent (a flex column): no wrapper element, so the
 * parent's own layout and selectors (`.run > [data-testid]`) see the rows as before.
 */
export function VirtualList<T>({ items, keyOf, estimate, stableEstimates = false, render, versionOf, places }: VirtualListProps<T>) {
  const scroller = useContext(ScrollerContext);
  const top = useRef<HTMLDivElement>(null);
  const bottom = useRef<HTMLDivElement>(null);
  /** Each row's measured height, by key, with the version it was measured at. */
  const heights = useRef(new Map<string, { px: number; version: unknown }>());
  const shown = useRef<Window>(firstWindow(items.length, scroller?.followsBottom() ?? false));
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  /** The rows of the last render. */
  const rowsSeen = useRef<readonly T[]>([]);
  // A window that reached the end of the list keeps reaching it as rows are appended (a live run's next item is
  // shown in the render that adds it, not one render later).
  shown.current = grownWindow(shown.current, rowsSeen.current.length, items.length);

  // The rows' offsets (prefix sums of their heights). With rows whose estimate is theirs alone, only the offsets
  // from the first row that changed are worked out again: a live run's list changes at its end every frame, and
  // summing all of its rows (thousands, a measured height or an estimate each) was ~6 % of the page's main thread.
  const offsetsKept = useRef<number[]>([0]);
  const offsets = offsetsKept.current;
  const measuredHeight = (item: T): number | undefined => {
    const measured = heights.current.get(keyOf(item));
    return measured && measured.version === versionOf?.(item) ? measured.px : undefined;
  };
  const sizeOf = (i: number) => measuredHeight(items[i]!) ?? estimate(items[i]!);
  function recomputeOffsets(from = 0): void {
    updateOffsets(offsets, items.length, from, sizeOf);
  }
  recomputeOffsets(stableEstimates ? firstDifference(rowsSeen.current, items) : 0);
  rowsSeen.current = items;

  /** The rows overlapping the viewport (plus overscan), by binary search over the offsets; a short list whole. */
  function windowNow(): Window {
    const scroll = scroller?.element();
    const origin = top.current;
    if (!scroll || !origin || items.length <= WHOLE_UP_TO) return { start: 0, end: items.length };
    const from = scroll.getBoundingClientRect().top - origin.getBoundingClientRect().top - OVERSCAN_PX;
    const to = from + scroll.clientHeight + 2 * OVERSCAN_PX;
    const start = Math.max(0, firstEndingAfter(offsets, from));
    let end = start;
    while (end < items.length && offsets[end]! < to) end++;
    return { start, end: Math.max(end, Math.min(items.length, start + 1)) };
  }

  if (places) {
    /** The rows in the DOM now (the window of the last render), with their keys. */
    const rendered = (): { key: string; element: Element }[] => {
      const rows: { key: string; element: Element }[] = [];
      let element = top.current?.nextElementSibling ?? null;
      for (let i = shown.current.start; i < shown.current.end && element && element !== bottom.current; i++, element = element.nextElementSibling) {
        if (items[i]) rows.push({ key: keyOf(items[i]!), element });
      }
      return rows;
    };
    places.current = {
      // From the DOM: a row's height changes with its own lists' renders, which the offsets learn only at this list's
      // next render.
      rowAt(scrollTop) {
        const scroll = scroller?.element();
        if (!scroll) return undefined;
        const viewTop = scroll.getBoundingClientRect().top + (scrollTop - scroll.scrollTop);
        const rows = rendered();
        const row = rows.find(({ element }) => element.getBoundingClientRect().top >= viewTop - 0.5) ?? rows.at(-1);
        return row && { key: row.key, into: viewTop - row.element.getBoundingClientRect().top };
      },
      scrollTopOf(key, into) {
        const scroll = scroller?.element();
        const spacer = top.current;
        if (!scroll || !spacer) return undefined;
        const shownRow = rendered().find((row) => row.key === key);
        if (shownRow) return scroll.scrollTop + shownRow.element.getBoundingClientRect().top - scroll.getBoundingClientRect().top + into;
        // Not in the DOM: where the heights known now put it (the list's first row starts at the top spacer's top).
        const row = items.findIndex((item) => keyOf(item) === key);
        return row === -1 ? undefined : scroll.scrollTop + spacer.getBoundingClientRect().top - scroll.getBoundingClientRect().top + offsets[row]! + into;
      },
    };
  }

  const current = shown.current;
  const start = Math.min(current.start, items.length);
  const end = Math.min(Math.max(current.end, start), items.length);

  // After each render: measure the rows shown (top of one to top of the next: margins and gap included), then move
  // the window if the viewport now needs other rows.
  useLayoutEffect(() => {
    let firstResized = -1;
    let row = top.current?.nextElementSibling ?? null;
    for (let i = start; i < end && row && row !== bottom.current; i++) {
      const next = row.nextElementSibling;
      if (!next) break;
      const height = next.getBoundingClientRect().top - row.getBoundingClientRect().top;
      const key = keyOf(items[i]!);
      if (Math.abs((measuredHeight(items[i]!) ?? -1) - height) > 0.5) {
        heights.current.set(key, { px: height, version: versionOf?.(items[i]!) });
        if (firstResized === -1) firstResized = i;
      }
      row = next;
    }
    // A row shown changing height moves the rows after it, not the spacers: re-render only if the window moved.
    if (firstResized !== -1) recomputeOffsets(firstResized);
    // Following the bottom first, so the window is worked out where the viewport ends up, not where it was.
    scroller?.changed();
    const wanted = windowNow();
    if (mustMove(shown.current, wanted)) {
      shown.current = wanted;
      rerender(0);
    }
  });

  // Scrolling and resizing move the window; one check per frame is enough. Subscribed once (a live list renders
  // every frame), the check asks the latest render's offsets.
  const latestWindow = useRef(windowNow);
  latestWindow.current = windowNow;
  useEffect(() => {
    const scroll = scroller?.element();
    if (!scroll) return;
    let frame: number | undefined;
    const check = () => {
      if (frame !== undefined) return;
      frame = requestAnimationFrame(() => {
        frame = undefined;
        const wanted = latestWindow.current();
        if (mustMove(shown.current, wanted)) {
          shown.current = wanted;
          rerender(0);
        }
      });
    };
    scroll.addEventListener("scroll", check, { passive: true });
    window.addEventListener("resize", check);
    return () => {
      if (frame !== undefined) cancelAnimationFrame(frame);
      scroll.removeEventListener("scroll", check);
      window.removeEventListener("resize", check);
    };
  }, [scroller]);

  const rows: VNode[] = [];
  for (let i = start; i < end; i++) {
    const item = items[i]!;
    const key = keyOf(item);
    rows.push(<Fragment key={key}>{render(item)}</Fragment>);
  }
  return (
    <>
      <div ref={top} class="virtual-spacer" aria-hidden="true" style={{ height: `${offsets[start]}px` }} />
      {rows}
      <div ref={bottom} class="virtual-spacer" aria-hidden="true" style={{ height: `${offsets[items.length]! - offsets[end]!}px` }} />
    </>
  );
}
