/**
 * Appends many small strings (a run's text deltas) without building a rope: `s += delta` keeps one rope node per
 * delta alive until the text is read, about 3× the text's size while a run streams. Deltas are joined in blocks,
 * small ones: a delta waiting for its block outlives young-generation collections and is promoted, and the block
 * join then leaves it as garbage only a full collection frees (see DEFAULT_FLUSH_DELAY_MS in event-log.ts).
 */
const BLOCK = 32;

export class TextBuffer {
  readonly #blocks: string[] = [];
  #parts: string[] = [];

  constructor(initial = "") {
    if (initial) this.#parts.push(initial);
  }

  append(text: string): void {
    this.#parts.push(text);
    if (this.#parts.length >= BLOCK) {
      this.#blocks.push(this.#parts.join(""));
      this.#parts = [];
    }
  }

  toString(): string {
    return this.#blocks.join("") + this.#parts.join("");
  }
}
