/**
 * Which rows a windowed list (virtual-list.tsx) keeps in the DOM, as pure functions of its rows' offsets and the
 * window it shows: no DOM here, so the policy is tested on its own.
 */

/** The rows shown: indexes `start` (included) to `end` (excluded). */
export interface Window {
  start: number;
  end: number;
}

/**
 * A list this short is shown whole: windowing pays off only for long ones, and a short conversation keeps every
 * turn in the DOM (find-in-page, and links into any turn, reach all of it).
 */
export const WHOLE_UP_TO = 30;
/** How many rows a long list shows on its first render, before it knows where the viewport is. */
const FIRST_ROWS = 12;
/**
 * Rows the window may hold beyond what the viewport needs before it is trimmed. Moving the window costs a second
 * render and layout in that frame; a live run appends a row every few frames, and without this slack each append
 * (and each row it pushed out of the overscan) cost one.
 */
export const SLACK_ROWS = 24;

/** Rows shown before anything was measured: a few at the end the viewport starts at; the layout pass corrects it. */
export function firstWindow(count: number, atBottom: boolean): Window {
  const rows = count <= WHOLE_UP_TO ? count : FIRST_ROWS;
  return atBottom ? { start: count - rows, end: count } : { start: 0, end: rows };
}

/**
 * The window once the list went from `before` to `now` rows: one that reached the end keeps reaching it as rows are
 * appended, so a live run's next item is shown in the render that adds it, not one render (and layout) later.
 */
export function grownWindow(shown: Window, before: number, now: number): Window {
  return shown.end > 0 && shown.end === before && now > before ? { start: shown.start, end: now } : shown;
}

/** Whether the window shown must become `wanted`: it lacks rows the viewport needs, or holds too many it does not. */
export function mustMove(shown: Window, wanted: Window): boolean {
  if (wanted.start < shown.start || wanted.end > shown.end) return true;
  return wanted.start - shown.start + (shown.end - wanted.end) > SLACK_ROWS;
}

/** The index of the first row whose bottom lies below `y` (offsets are ascending). */
export function firstEndingAfter(offsets: readonly number[], y: number): number {
  let low = 0;
  let high = offsets.length - 1;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (offsets[mid + 1]! <= y) low = mid + 1;
    else high = mid;
  }
  return Math.min(low, offsets.length - 2);
}

/** The first index at which two lists hold a different row (the shorter one's length when the other extends it). */
export function firstDifference<T>(before: readonly T[], now: readonly T[]): number {
  const common = Math.min(before.length, now.length);
  for (let i = 0; i < common; i++) if (before[i] !== now[i]) return i;
  return common;
}

/**
 * `offsets` (offsets[i] = the sum of the heights of rows 0..i-1, for `count` rows) worked out again from row `from`
 * on, in place; the offsets up to `from` are kept as they are.
 */
export function updateOffsets(offsets: number[], count: number, from: number, sizeOf: (index: number) => number): void {
  offsets.length = count + 1;
  offsets[0] = 0;
  for (let i = Math.max(0, Math.min(from, count)); i < count; i++) offsets[i + 1] = offsets[i]! + sizeOf(i);
}
