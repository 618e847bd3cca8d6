/**
 * A side panel's long list a page at a time (web/lib/newest-page.ts): the page it is at, kept per `scope` (another
 * project starts over at the first page), and the "Show more" row that adds one.
 */
import { useState } from "preact/hooks";
import { newestPage, PANEL_PAGE } from "../lib/newest-page.ts";

export function useNewestPage<T>(newestFirst: readonly T[], scope: string | null, isOpen: (item: T) => boolean) {
  const [more, setMore] = useState<{ scope: string | null; limit: number }>({ scope: null, limit: PANEL_PAGE });
  const limit = more.scope === scope ? more.limit : PANEL_PAGE;
  return { ...newestPage(newestFirst, limit, isOpen), showMore: () => setMore({ scope, limit: limit + PANEL_PAGE }) };
}

/** The last row of such a list while some are left out. */
export function ShowMore({ hidden, onClick, testId }: { hidden: number; onClick: () => void; testId: string }) {
  if (hidden === 0) return null;
  return (
    <li>
      <button type="button" class="ghost small" data-testid={testId} onClick={onClick}>
        Show more ({hidden} older)
      </button>
    </li>
  );
}
