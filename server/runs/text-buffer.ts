/**
 * Appends many small strings (a run's text deltas) without building a rope: `s += delta` keeps one rope node per
 * delta alive until the text is read, about 3× the text's size while a run streams. Deltas are joined in blocks,
 * small ones: a delta waiting for its block outlives young-generation collections and is promoted, and the block
 * join then leaves it as garbage only a full collection frees (see DEFAULT_FLUSH_DELAY_MS in event-log.ts).
 *
 * Past `SINK_AFTER_CHARS`, the blocks go to a UTF-8 sink outside the collected heap where the runtime has one
 * (server/platform/utf8-sink.ts), until the text is read: held as strings, a long answer counts as live heap and lets
 * as much garbage again pile up between the collector's own collections (a 100k-line `od run` whose answer is one 3 MB
 * part peaked 1.3–2.0 MB lower: one binary with a switch, 40 interleaved rounds, twice). A block a sink cannot hold as
 * it is (a lone surrogate) sends the text back to strings.
 */
import { createUtf8Sink, type Utf8Sink } from "../platform/utf8-sink.ts";
import { endsInHighSurrogate } from "../utf16.ts";

const BLOCK = 32;
/** Characters held as strings before the blocks go to a sink: a short part (most of them) never makes one. */
export const SINK_AFTER_CHARS = 64 * 1024;

export class TextBuffer {
  #blocks: string[] = [];
  #parts: string[] = [];
  #blockChars = 0;
  #sink: Utf8Sink | undefined;
  /** A high surrogate that ended the last block given to the sink, waiting for the low one that pairs with it. */
  #held = "";
  /** No sink from here on: none on this runtime, the text held a lone surrogate, or it was read. */
  #stringsOnly = false;

  constructor(initial = "") {
    if (initial) this.append(initial);
  }

  append(text: string): void {
    this.#parts.push(text);
    if (this.#parts.length < BLOCK) return;
    const block = this.#parts.join("");
    this.#parts = [];
    if (this.#sink) return this.#write(block);
    this.#blocks.push(block);
    this.#blockChars += block.length;
    if (this.#blockChars >= SINK_AFTER_CHARS && !this.#stringsOnly) this.#startSink();
  }

  /** The whole text. Reading ends the sink: the text is strings from then on (a part is read once, at its end). */
  toString(): string {
    if (this.#sink) this.#endSink();
    this.#stringsOnly = true;
    return this.#blocks.join("") + this.#parts.join("");
  }

  /** Whether the blocks are held in a sink now (tests). */
  get inSink(): boolean {
    return this.#sink !== undefined;
  }

  #startSink(): void {
    const sink = createUtf8Sink();
    if (!sink) {
      this.#stringsOnly = true;
      return;
    }
    const text = this.#blocks.join("");
    this.#blocks = [];
    this.#sink = sink;
    this.#write(text);
  }

  /** Into the sink as UTF-8; a high surrogate at the end waits for its pair, so no character is split in two. */
  #write(block: string): void {
    const text = this.#held + block;
    this.#held = "";
    if (text.isWellFormed()) return this.#sink!.write(text);
    const before = text.slice(0, -1);
    if (endsInHighSurrogate(text) && before.isWellFormed()) {
      if (before) this.#sink!.write(before);
      this.#held = text.slice(-1);
      return;
    }
    // A lone surrogate, which UTF-8 cannot hold: what the sink has goes back to a string, and the rest stays strings.
    this.#endSink();
    this.#stringsOnly = true;
    this.#blocks.push(text);
  }

  /** The sink's text back as the first block (and a held surrogate after it). */
  #endSink(): void {
    const bytes = this.#sink!.end();
    this.#sink = undefined;
    this.#blocks = [new TextDecoder().decode(bytes) + this.#held];
    this.#held = "";
  }
}
