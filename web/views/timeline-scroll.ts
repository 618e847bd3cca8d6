/**
 * How the conversation's timeline scrolls: it follows the bottom while the reader is there (a streaming answer
 * stays in view) and stops following once they scroll away; a reload puts it back where the reader left it. The
 * windowed lists inside call `changed()` after rows were added or re-measured, which is when following happens.
 */
import { useLayoutEffect, useMemo, useRef } from "preact/hooks";
import type { ListPlaces, Scroller } from "../components/virtual-list.tsx";
import { loadScrollSpot, saveScrollSpot, type ScrollSpot } from "../state/scroll-memory.ts";
import { tabStorage } from "../state/tab-memory.ts";

/** Within this many px of the end counts as "at the bottom". */
const BOTTOM_SLACK_PX = 4;
/** A scroll this soon after a wheel, key, touch or pointer press is the reader's. */
const INTENT_MS = 600;
/** How often, at most, a scroll is written to the tab's storage. */
const SAVE_EVERY_MS = 250;
/**
 * How long a place gone back to on reload is held, unless the reader scrolls: the rows around it are measured only
 * once shown, and each that comes out at another height than its guess moves it. Held once, a restore was clamped
 * when the content above came out shorter, and that scroll, read as the reader reaching the bottom, pinned the
 * timeline to the bottom for good.
 */
const RESTORE_HOLD_MS = 1500;

interface Follow {
  conversationId: string | null;
  /** Keep the bottom in view. */
  stuck: boolean;
  /**
   * A saved spot to go back to once the finished turns are in, then held (`held`) for RESTORE_HOLD_MS after it was
   * first reached while the rows around it are measured.
   */
  restore: ScrollSpot | null;
  held: boolean;
  /** The scrollTop the restore last set: a scroll elsewhere (not a clamp to the end) is someone else's. */
  heldTop: number;
  loading: boolean;
  intentAt: number;
  /** Where the bottom was last followed to (scrollTop). */
  pinnedTop: number;
}

function distanceFromBottom(el: HTMLElement): number {
  return el.scrollHeight - el.clientHeight - el.scrollTop;
}

/** What the timeline's rows tell the scroll: whether rows it waits for are still loading, and how to load them all. */
export interface TimelineRows {
  count: number;
  /** Rows asked for are still loading (their sizes are not known yet). Read during render, so it may be a signal. */
  loading(): boolean;
  /** Going back to a saved place mid-conversation needs the size of every row above it: load them all. */
  loadAll(): void;
}

export function useTimelineScroll(conversationId: string | null, timelineRows: TimelineRows) {
  const ref = useRef<HTMLDivElement>(null);
  // No intent yet: performance.now() starts near 0 with the page, so an intent at 0 made every scroll of the page's
  // first INTENT_MS look like the reader's (a restore's clamp among them, which then pinned the bottom).
  const follow = useRef<Follow>({ conversationId: null, stuck: true, restore: null, held: false, heldTop: 0, loading: false, intentAt: Number.NEGATIVE_INFINITY, pinnedTop: 0 });
  /** The timeline list's rows by key (its VirtualList fills it in). */
  const places = useRef<ListPlaces | null>(null);
  if (follow.current.restore) timelineRows.loadAll();
  const loading = timelineRows.loading();
  const rows = timelineRows.count;
  follow.current.loading = loading;

  const scroller = useMemo<Scroller>(() => {
    function changed(): void {
      const el = ref.current;
      const f = follow.current;
      if (!el) return;
      if (f.restore) {
        if (f.loading) return;
        // The row the reader was looking at, where the heights known now put it (the rows above it may be guessed at
        // other heights than the page before had them); else the saved offset.
        const anchor = f.restore.anchor;
        const target = (anchor && places.current?.scrollTopOf(anchor.key, anchor.into)) ?? f.restore.top;
        if (el.scrollHeight - el.clientHeight < target - 1) return;
        if (Math.abs(el.scrollTop - target) > 1) el.scrollTop = target;
        f.heldTop = el.scrollTop;
        if (!f.held) {
          f.held = true;
          const held = f.restore;
          setTimeout(() => {
            if (f.restore === held) f.restore = null;
          }, RESTORE_HOLD_MS);
        }
        return;
      }
      if (f.stuck && distanceFromBottom(el) > BOTTOM_SLACK_PX) {
        // The reader scrolled up since the bottom was last followed, and its scroll event is still to come (a render
        // between a wheel and the frame that reports it, e.g. when a turn's events arrive): not pulled back down.
        if (performance.now() - f.intentAt < INTENT_MS && el.scrollTop < f.pinnedTop - BOTTOM_SLACK_PX) {
          f.stuck = false;
          return;
        }
        el.scrollTop = el.scrollHeight;
      }
      if (f.stuck) f.pinnedTop = el.scrollTop;
    }
    return { element: () => ref.current, changed, followsBottom: () => follow.current.stuck && !follow.current.restore };
  }, []);

  // A newly opened conversation starts where the reader left it, else at the bottom.
  useLayoutEffect(() => {
    const f = follow.current;
    f.conversationId = conversationId;
    const spot = conversationId ? loadScrollSpot(tabStorage(), conversationId) : null;
    f.restore = spot && !spot.atBottom ? spot : null;
    f.held = false;
    f.stuck = !f.restore;
    f.pinnedTop = ref.current?.scrollTop ?? 0;
    if (f.restore) {
      timelineRows.loadAll();
      f.loading = timelineRows.loading();
    }
    scroller.changed();
  }, [conversationId]);

  // A new row (a sent message, a new turn) brings the bottom back into view, unless a restore is still pending.
  useLayoutEffect(() => {
    if (!follow.current.restore) {
      follow.current.stuck = true;
      follow.current.pinnedTop = ref.current?.scrollTop ?? 0;
    }
    scroller.changed();
  }, [rows]);

  // Rows done loading may let a pending restore happen. Not a reason to go back to the bottom: rows the reader
  // scrolls to load their turns as they come into view.
  useLayoutEffect(() => scroller.changed(), [loading]);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const f = follow.current;
    const intent = () => (f.intentAt = performance.now());
    const onScroll = () => {
      const byReader = performance.now() - f.intentAt < INTENT_MS;
      // Until the place is reached, only the reader's own scroll counts (and ends the restore); while it is held, so
      // does a scroll to elsewhere (a link, find-in-page), but not the content's end coming up to meet it (a clamp).
      if (f.restore) {
        const elsewhere = f.held && Math.abs(el.scrollTop - f.heldTop) > 1 && distanceFromBottom(el) > BOTTOM_SLACK_PX;
        if (!byReader && !elsewhere) return;
        f.restore = null;
      }
      const distance = distanceFromBottom(el);
      if (distance <= BOTTOM_SLACK_PX) {
        f.stuck = true;
        f.pinnedTop = el.scrollTop;
      }
      // Rows re-measured above the viewport move it a little; only the reader (or a jump of a screen) lets go.
      else if (byReader || distance > el.clientHeight) f.stuck = false;
      // Storage writes are synchronous: at most one per SAVE_EVERY_MS while scrolling, and the last one on leaving.
      if (f.conversationId) unsaved = f.conversationId;
      if (saveTimer === undefined) saveTimer = setTimeout(save, SAVE_EVERY_MS);
    };
    /** The conversation scrolled since the last save: its place is read when saved, once the rows have settled. */
    let unsaved: string | undefined;
    let saveTimer: ReturnType<typeof setTimeout> | undefined;
    const save = () => {
      clearTimeout(saveTimer);
      saveTimer = undefined;
      if (unsaved && unsaved === f.conversationId) {
        const anchor = f.stuck ? undefined : places.current?.rowAt(el.scrollTop);
        saveScrollSpot(tabStorage(), unsaved, { top: el.scrollTop, atBottom: f.stuck, ...(anchor ? { anchor } : {}) });
      }
      unsaved = undefined;
    };
    // Leaving (a reload): the place now, whether or not it moved since the last save (rows measured after the
    // reader's last scroll move what is in view without a scroll event); not while a restore is still under way.
    const leave = () => {
      if (f.conversationId && !f.restore) unsaved = f.conversationId;
      save();
    };
    const events = ["wheel", "keydown", "pointerdown", "touchmove"] as const;
    for (const name of events) el.addEventListener(name, intent, { passive: true });
    el.addEventListener("scroll", onScroll, { passive: true });
    window.addEventListener("pagehide", leave);
    return () => {
      if (saveTimer !== undefined) save();
      for (const name of events) el.removeEventListener(name, intent);
      el.removeEventListener("scroll", onScroll);
      window.removeEventListener("pagehide", leave);
    };
  }, []);

  return { ref, scroller, places };
}
