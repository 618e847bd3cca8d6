/**
 * Appends many small strings (a run's text deltas) without building a rope: `s += delta` keeps one rope node per
 * delta alive until the text is read, about 3× the text's size while a run streams. Deltas are joined in blocks,
 * small ones: a delta waiting for its block outlives young-generation collections and is promoted, and the block
 * join then leaves it as garbage only a full collection frees (see DEFAULT_FLUSH_DELAY_MS in event-log.ts).
 *
 * With a `storeOut`, the buffer does not hold a long text either: each time its blocks reach `PIECE_CHARS`, they are
 * handed to it as one piece (the fold stores them as the answer's pieces, server/runs/text-pieces.ts) and the buffer
 * holds only what came after. A 100k-line `od run` whose answer is one 3 MB part peaked 6.4 MB lower than with the
 * text held until the run's end (then written as one value: its JSON and sqlite's copies of it). A piece ends on a
 * whole character (a high surrogate waits for its pair); a text that is not well formed (a lone surrogate, which a
 * stored text cannot hold as it is) is held from then on, as is the text after a piece that could not be stored.
 */
import { endsInHighSurrogate } from "../utf16.ts";
import { perEvent } from "../platform/jit-tiers.ts";

const BLOCK = 32;
/** Characters held before they go to `storeOut` as a piece: a short part (most of them) never makes one. */
export const PIECE_CHARS = 64 * 1024;

/** Takes a piece of the text; false when it could not (the buffer then holds the text from there on). */
export type StoreOut = (piece: string) => boolean;

export class TextBuffer {
  static {
    perEvent(this, this.prototype.append, this.prototype.toString);
  }

  #blocks: string[] = [];
  #parts: string[] = [];
  #blockChars = 0;
  #storeOut: StoreOut | undefined;

  constructor(initial = "", storeOut?: StoreOut) {
    this.#storeOut = storeOut;
    if (initial) this.append(initial);
  }

  append(text: string): void {
    this.#parts.push(text);
    if (this.#parts.length < BLOCK) return;
    const block = this.#parts.join("");
    this.#parts = [];
    this.#blocks.push(block);
    this.#blockChars += block.length;
    if (this.#storeOut && this.#blockChars >= PIECE_CHARS) this.#storePiece(this.#storeOut);
  }

  /** The text held: all of it, or with a `storeOut`, what came after the last piece it took. */
  toString(): string {
    return this.#blocks.join("") + this.#parts.join("");
  }

  #storePiece(storeOut: StoreOut): void {
    const held = this.#blocks.join("");
    // A high surrogate at the end waits for the low one that pairs with it, so no character is split in two.
    const piece = endsInHighSurrogate(held) ? held.slice(0, -1) : held;
    if (!piece.isWellFormed() || !storeOut(piece)) {
      this.#storeOut = undefined;
      this.#blocks = [held];
      return;
    }
    const rest = held.slice(piece.length);
    this.#blocks = rest ? [rest] : [];
    this.#blockChars = rest.length;
  }
}
