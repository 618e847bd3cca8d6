/**
 * Which of a project's conversations the sidebar lists: the newest ones first, as many as `limit`, and the open one
 * wherever it is. A project used for months has hundreds; each is a row of buttons, and listing them all put
 * thousands of elements on the page for the few anyone scrolls to. The rest are a "Show more" away. Pure.
 */

/** How many conversations a project lists at first, and how many more each "Show more" adds. */
export const CONVERSATIONS_PAGE = 50;

export function conversationsShown<T extends { id: string }>(newestFirst: readonly T[], openId: string | null, limit: number): { shown: T[]; hidden: number } {
  if (newestFirst.length <= limit) return { shown: [...newestFirst], hidden: 0 };
  const shown = newestFirst.slice(0, limit);
  const open = openId === null ? undefined : newestFirst.find((conversation, index) => index >= limit && conversation.id === openId);
  if (open) shown.push(open);
  return { shown, hidden: newestFirst.length - shown.length };
}
