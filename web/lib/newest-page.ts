/**
 * What a long list of a side panel shows (a project's conversations, its files): the newest first, as many as
 * `limit`, and the one that is open wherever it is; the rest are a "Show more" away. A project used for months has
 * hundreds of conversations and a real repository hundreds of files; each is a row of elements, and listing them all
 * put thousands on the page for the few anyone scrolls to. Pure.
 */

/** How many rows a side panel's list shows at first, and how many more each "Show more" adds. */
export const PANEL_PAGE = 50;

export function newestPage<T>(newestFirst: readonly T[], limit: number, isOpen: (item: T) => boolean = () => false): { shown: T[]; hidden: number } {
  if (newestFirst.length <= limit) return { shown: [...newestFirst], hidden: 0 };
  const shown = newestFirst.slice(0, limit);
  const open = newestFirst.find((item, index) => index >= limit && isOpen(item));
  if (open !== undefined) shown.push(open);
  return { shown, hidden: newestFirst.length - shown.length };
}
