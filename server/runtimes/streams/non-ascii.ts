/**
 * Finds bytes ≥ 0x80 in one byte array, reading it four bytes at a time. `isAscii` (native, SIMD) answers only yes
 * or no; the bulk reader also needs to know where, so that only the lines holding such bytes leave the bulk path.
 */
import { perEvent } from "../../platform/jit-tiers.ts";

const HIGH_BITS = 0x80808080;

/** A scanner over one array; the word view is made once, not per search. */
export class NonAsciiFinder {
  static {
    perEvent(this, this.prototype.indexOf);
  }

  /** Index in `bytes` of the first byte at a 4-byte boundary of the underlying buffer (a Uint32Array needs one). */
  private readonly wordsFrom: number;
  private readonly words: Uint32Array;

  constructor(private readonly bytes: Uint8Array) {
    const misaligned = (4 - (bytes.byteOffset & 3)) & 3;
    this.wordsFrom = Math.min(misaligned, bytes.length);
    const count = (bytes.length - this.wordsFrom) >> 2;
    this.words = count > 0 ? new Uint32Array(bytes.buffer, bytes.byteOffset + this.wordsFrom, count) : new Uint32Array(0);
  }

  /** Offset of the first non-ASCII byte in `bytes[from, to)`, or -1 when there is none. */
  indexOf(from: number, to: number): number {
    const { bytes, words, wordsFrom } = this;
    // Whole words lie at indexes [firstWord, endWord); the bytes around them are read one by one.
    const firstWord = Math.max(0, (from - wordsFrom + 3) >> 2);
    const endWord = Math.max(firstWord, (to - wordsFrom) >> 2);
    const headEnd = Math.min(to, wordsFrom + firstWord * 4);
    for (let i = from; i < headEnd; i++) if (bytes[i]! >= 0x80) return i;
    let w = firstWord;
    // Four words per test while they last: the common case is a long run of ASCII.
    for (; w + 3 < endWord; w += 4) if (((words[w]! | words[w + 1]! | words[w + 2]! | words[w + 3]!) & HIGH_BITS) !== 0) break;
    for (; w < endWord; w++) {
      if ((words[w]! & HIGH_BITS) !== 0) {
        let j = wordsFrom + w * 4;
        while (bytes[j]! < 0x80) j++;
        return j;
      }
    }
    for (let i = Math.max(headEnd, wordsFrom + endWord * 4); i < to; i++) if (bytes[i]! >= 0x80) return i;
    return -1;
  }
}
