/**
 * Where the reader left a conversation, kept per browser tab (sessionStorage), so a reload opens it at the same
 * place instead of the bottom. Nothing here is trusted: a stored value that does not parse is no value.
 */

/**
 * A scroll position: the timeline's scrollTop, whether it was at the bottom (then it follows the bottom), and the row
 * at the top with how far into it (the rows above may be guessed at other heights after a reload, or were guessed
 * before it: the row is what the reader was looking at).
 */
export interface ScrollSpot {
  top: number;
  atBottom: boolean;
  anchor?: { key: string; into: number };
}

const PREFIX = "od.scroll.";

export function loadScrollSpot(storage: Pick<Storage, "getItem"> | undefined, conversationId: string): ScrollSpot | null {
  try {
    const value = JSON.parse(storage?.getItem(PREFIX + conversationId) ?? "null") as Partial<ScrollSpot> | null;
    if (!value || typeof value.top !== "number" || !Number.isFinite(value.top) || typeof value.atBottom !== "boolean") return null;
    const anchor = value.anchor;
    const anchored = anchor && typeof anchor.key === "string" && typeof anchor.into === "number" && Number.isFinite(anchor.into) ? { anchor: { key: anchor.key, into: anchor.into } } : {};
    return { top: Math.max(0, value.top), atBottom: value.atBottom, ...anchored };
  } catch {
    return null;
  }
}

export function saveScrollSpot(storage: Pick<Storage, "setItem"> | undefined, conversationId: string, spot: ScrollSpot): void {
  try {
    storage?.setItem(PREFIX + conversationId, JSON.stringify(spot));
  } catch {
    // A full or disabled storage only costs the restore on reload.
  }
}
