/**
 * Rewrites UTF-8 JSON lines as ASCII, so the native bulk parser can take a range with a few non-ASCII characters at
 * its ASCII speed instead of decoding the whole range to UTF-16. Every non-ASCII character becomes a `\uXXXX` escape
 * (a surrogate pair above U+FFFF). Inside a JSON string that is the same character; outside one, JSON allows neither
 * the character nor a backslash, so a line parses to the same value as before, or fails as before. Newlines are kept,
 * so the lines correspond one to one, and `sourceOffset` maps a line boundary back to the source bytes.
 */
import { perEvent } from "../../platform/jit-tiers.ts";
import type { NonAsciiFinder } from "./non-ascii.ts";

/**
 * At most one escaped character per this many bytes: escaping costs per character, so text that is mostly
 * non-ASCII (CJK, Cyrillic) is cheaper to parse line by line (measured: 1.8x slower escaped; one "·" per KiB is
 * 1.2x faster escaped).
 */
const BYTES_PER_ESCAPE = 256;
/** Lets a short cluster (one line of emoji) through at the start of a range. */
const ESCAPE_ALLOWANCE = 64;
/** A buffer grown past this is not kept for the next range. */
const KEEP_BYTES = 1024 * 1024;

const BACKSLASH = 0x5c;
const LETTER_U = 0x75;
const HEX_DIGITS = [..."0123456789abcdef"].map((c) => c.charCodeAt(0));

/** The rewritten range: `bytes[0, length)`. */
export type AsciiRange = { bytes: Uint8Array; length: number };

export class AsciiJsonRewriter {
  static {
    perEvent(this.prototype.rewrite, this.prototype.sourceOffset, this.prototype.escape, this.prototype.reserve, decodeUtf8);
  }

  private buffer = new Uint8Array(0);
  private length = 0;
  private sourceStart = 0;
  /** For each escape, in order: its end in the output, and how many bytes longer the output is from there on. */
  private escapeEnds: number[] = [];
  private growths: number[] = [];

  /**
   * Rewrites `source[start, end)`, whose non-ASCII bytes `finder` finds. Undefined when the range holds invalid UTF-8
   * (the line path replaces it as the decoder does) or more non-ASCII characters than escaping pays for.
   */
  rewrite(source: Uint8Array, start: number, end: number, finder: NonAsciiFinder): AsciiRange | undefined {
    this.sourceStart = start;
    this.length = 0;
    this.escapeEnds.length = 0;
    this.growths.length = 0;
    this.reserve(end - start);
    let growth = 0;
    for (let at = start; ; ) {
      const nonAscii = finder.indexOf(at, end);
      const runEnd = nonAscii < 0 ? end : nonAscii;
      this.buffer.set(source.subarray(at, runEnd), this.length);
      this.length += runEnd - at;
      if (nonAscii < 0) break;
      if (this.escapeEnds.length * BYTES_PER_ESCAPE > nonAscii - start + ESCAPE_ALLOWANCE * BYTES_PER_ESCAPE) return undefined;
      const decoded = decodeUtf8(source, nonAscii, end);
      if (decoded < 0) return undefined;
      const codePoint = decoded >> 3;
      const sourceBytes = decoded & 7;
      this.reserve(end - nonAscii + 12);
      if (codePoint < 0x10000) this.escape(codePoint);
      else {
        this.escape(0xd800 + ((codePoint - 0x10000) >> 10));
        this.escape(0xdc00 + ((codePoint - 0x10000) & 0x3ff));
      }
      growth += (codePoint < 0x10000 ? 6 : 12) - sourceBytes;
      this.escapeEnds.push(this.length);
      this.growths.push(growth);
      at = nonAscii + sourceBytes;
    }
    return { bytes: this.buffer, length: this.length };
  }

  /** The source offset of `offset` in the last output, an offset outside any escape (a line boundary is one). */
  sourceOffset(offset: number): number {
    // The last escape ending at or before `offset` (binary search: escapes are in output order).
    let low = 0;
    let high = this.escapeEnds.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.escapeEnds[middle]! <= offset) low = middle + 1;
      else high = middle;
    }
    return this.sourceStart + offset - (low === 0 ? 0 : this.growths[low - 1]!);
  }

  /** Drops a buffer that one large range grew, so a reader does not hold it for the rest of its life. */
  release(): void {
    if (this.buffer.length > KEEP_BYTES) this.buffer = new Uint8Array(0);
  }

  private escape(unit: number): void {
    const b = this.buffer;
    const o = this.length;
    b[o] = BACKSLASH;
    b[o + 1] = LETTER_U;
    b[o + 2] = HEX_DIGITS[unit >> 12]!;
    b[o + 3] = HEX_DIGITS[(unit >> 8) & 15]!;
    b[o + 4] = HEX_DIGITS[(unit >> 4) & 15]!;
    b[o + 5] = HEX_DIGITS[unit & 15]!;
    this.length = o + 6;
  }

  /** Room for `more` bytes past the current length. */
  private reserve(more: number): void {
    if (this.length + more <= this.buffer.length) return;
    const grown = new Uint8Array(Math.max(this.length + more, this.buffer.length * 2));
    grown.set(this.buffer.subarray(0, this.length));
    this.buffer = grown;
  }
}

/**
 * Decodes the well-formed UTF-8 sequence at `bytes[at]` (a byte ≥ 0x80) as `codePoint << 3 | length`, or -1 for
 * anything the WHATWG decoder would replace: a stray continuation byte, an overlong form, a surrogate, a value past
 * U+10FFFF, or a sequence cut short by `end`.
 */
export function decodeUtf8(bytes: Uint8Array, at: number, end: number): number {
  const lead = bytes[at]!;
  if (lead >= 0xc2 && lead <= 0xdf) {
    if (at + 1 >= end) return -1;
    const b1 = bytes[at + 1]!;
    if ((b1 & 0xc0) !== 0x80) return -1;
    return ((((lead & 0x1f) << 6) | (b1 & 0x3f)) << 3) | 2;
  }
  if (lead >= 0xe0 && lead <= 0xef) {
    if (at + 2 >= end) return -1;
    const b1 = bytes[at + 1]!;
    const b2 = bytes[at + 2]!;
    const low = lead === 0xe0 ? 0xa0 : 0x80;
    const high = lead === 0xed ? 0x9f : 0xbf;
    if (b1 < low || b1 > high || (b2 & 0xc0) !== 0x80) return -1;
    return ((((lead & 0x0f) << 12) | ((b1 & 0x3f) << 6) | (b2 & 0x3f)) << 3) | 3;
  }
  if (lead >= 0xf0 && lead <= 0xf4) {
    if (at + 3 >= end) return -1;
    const b1 = bytes[at + 1]!;
    const b2 = bytes[at + 2]!;
    const b3 = bytes[at + 3]!;
    const low = lead === 0xf0 ? 0x90 : 0x80;
    const high = lead === 0xf4 ? 0x8f : 0xbf;
    if (b1 < low || b1 > high || (b2 & 0xc0) !== 0x80 || (b3 & 0xc0) !== 0x80) return -1;
    return ((((lead & 0x07) << 18) | ((b1 & 0x3f) << 12) | ((b2 & 0x3f) << 6) | (b3 & 0x3f)) << 3) | 4;
  }
  return -1;
}
