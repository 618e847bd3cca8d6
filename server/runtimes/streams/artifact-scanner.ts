/**
 * Finds `<artifact …>…</artifact>` blocks in text that arrives in chunks, the same blocks artifacts.ts's BLOCK
 * regex finds in the whole text, while holding only a bounded carry between chunks: a possible tag start that the
 * chunk cut. A block's body is handed on as it arrives, never collected here. Pure: no I/O.
 *
 * Differences from the regex, only on pathological input: an opening tag longer than `MAX_TAG_CHARS` is not a tag,
 * and a block still open at the end of input is abandoned (the regex would rescan inside it).
 */

/** What the scanner reports, in input order. */
export interface ArtifactScanHandler {
  /** An opening tag; `attributes` is the text between `<artifact` and `>`. */
  open(attributes: string): void;
  /** The next piece of the open block's body. */
  body(text: string): void;
  /** The open block's closing tag. */
  close(): void;
  /** Input ended inside a block. */
  abandon(): void;
}

/** Longest opening or closing tag we wait for across chunks. */
export const MAX_TAG_CHARS = 64 * 1024;

const OPEN = /<artifact/gi;
const CLOSE = /<\/artifact\s*>/gi;
/** A closing tag cut by the end of a chunk: a prefix of `</artifact`, or all of it followed by whitespace. */
const PARTIAL_CLOSE = /^<(?:\/(?:a(?:r(?:t(?:i(?:f(?:a(?:c(?:t\s*)?)?)?)?)?)?)?)?)?$/i;
const WORD_CHAR = /\w/;
const TAG_NAME = "<artifact";

export class ArtifactScanner {
  #inside = false;
  /** Unconsumed text at the end of the last chunk that may begin a tag. */
  #carry = "";

  constructor(private readonly handler: ArtifactScanHandler) {}

  push(chunk: string): void {
    const text = this.#carry + chunk;
    this.#carry = "";
    let pos = 0;
    while (pos < text.length) {
      const next = this.#inside ? this.#scanInside(text, pos) : this.#scanOutside(text, pos);
      if (next < 0) return;
      pos = next;
    }
  }

  /** Ends input: a block still open is abandoned, a cut tag start is dropped. */
  end(): void {
    this.#carry = "";
    if (!this.#inside) return;
    this.#inside = false;
    this.handler.abandon();
  }

  /** Looks for an opening tag from `pos`; returns where to go on, or -1 when the chunk is used up. */
  #scanOutside(text: string, pos: number): number {
    OPEN.lastIndex = pos;
    const found = OPEN.exec(text);
    if (!found) {
      this.#carry = partialOpen(text);
      return -1;
    }
    const start = found.index;
    const afterName = start + TAG_NAME.length;
    // `<artifact` must end at a word boundary; at the chunk's end we cannot tell yet.
    if (afterName === text.length) return this.#keep(text, start);
    if (WORD_CHAR.test(text[afterName]!)) return start + 1;
    const close = text.indexOf(">", afterName);
    if (close < 0) return text.length - start > MAX_TAG_CHARS ? start + 1 : this.#keep(text, start);
    if (close - start > MAX_TAG_CHARS) return start + 1;
    this.#inside = true;
    this.handler.open(text.slice(afterName, close));
    return close + 1;
  }

  /** Hands on body text from `pos` up to a closing tag (or as far as is safe); returns where to go on, or -1. */
  #scanInside(text: string, pos: number): number {
    CLOSE.lastIndex = pos;
    const found = CLOSE.exec(text);
    if (found) {
      if (found.index > pos) this.handler.body(text.slice(pos, found.index));
      this.#inside = false;
      this.handler.close();
      return found.index + found[0].length;
    }
    const lt = text.lastIndexOf("<");
    const cut = lt >= pos && text.length - lt <= MAX_TAG_CHARS && PARTIAL_CLOSE.test(text.slice(lt)) ? lt : text.length;
    if (cut > pos) this.handler.body(text.slice(pos, cut));
    this.#carry = text.slice(cut);
    return -1;
  }

  #keep(text: string, from: number): number {
    this.#carry = text.slice(from);
    return -1;
  }
}

/** The end of `text` when it is a (case-insensitive) prefix of `<artifact`, else "". */
function partialOpen(text: string): string {
  const lt = text.lastIndexOf("<");
  if (lt < 0 || text.length - lt >= TAG_NAME.length) return "";
  const tail = text.slice(lt);
  return TAG_NAME.startsWith(tail.toLowerCase()) ? tail : "";
}
