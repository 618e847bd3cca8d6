/**
 * Bytes → lines. Splits on `\n` at the byte level (a `\n` byte never occurs inside a multi-byte UTF-8 sequence, so
 * characters split across chunks are reassembled before decoding), strips a trailing `\r`, and caps line length so a
 * CLI that prints a huge line without a newline cannot grow memory without bound.
 */
import { Buffer } from "node:buffer";

/** Default cap on one line: 8 MiB. */
export const DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024;

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** A line that exceeded the cap; its bytes were discarded and reading continues after its newline. */
export class LineTooLong {
  readonly code = "LINE_TOO_LONG";
  constructor(
    /** Bytes seen before the line was dropped (at least the cap). */
    readonly bytes: number,
    readonly maxBytes: number,
  ) {}
  get message(): string {
    return `line longer than ${this.maxBytes} bytes (${this.bytes}+ seen) was skipped`;
  }
}

/** One item out of the buffer: a decoded line, or a notice that an oversized line was dropped. */
export type LineItem = string | LineTooLong;

/** Incremental splitter; `push` chunks as they arrive, then `flush` once at end of input. */
export class LineBuffer {
  /** Decodes the first line of each `push` and the flushed line; it drops a leading BOM, as decoding a whole chunk did. */
  private readonly decoder = new TextDecoder("utf-8");
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private discarding = false;

  constructor(private readonly maxLineBytes = DEFAULT_MAX_LINE_BYTES) {}

  /**
   * Feeds a chunk and returns every line it completes, in order. Newlines are found in the bytes and each line is
   * decoded on its own: no chunk-sized string is built and sliced (its fresh memory costs more than the decoding),
   * and an ASCII line stays a compact one-byte string even when a neighbour in the chunk is not ASCII.
   */
  push(chunk: Uint8Array): LineItem[] {
    const out: LineItem[] = [];
    let start = 0;
    if (this.discarding) {
      const nl = chunk.indexOf(NEWLINE);
      if (nl < 0) return out;
      this.discarding = false;
      start = nl + 1;
    }
    let nl = chunk.indexOf(NEWLINE, start);
    if (nl < 0) {
      this.keep(chunk.subarray(start), out);
      return out;
    }
    const first = this.pendingBytes > 0 ? this.takePending(chunk.subarray(start, nl)) : chunk.subarray(start, nl);
    const firstEnd = lineEnd(first, 0, first.length);
    this.emit(this.decoder.decode(first.subarray(0, firstEnd)), firstEnd, out);
    start = nl + 1;
    // Later lines go through a Buffer view of the chunk: decoding a range needs no subarray object per line, and
    // Buffer keeps a BOM there, as it was mid-text for the whole-chunk decode this replaces.
    const view = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (nl = chunk.indexOf(NEWLINE, start); nl >= 0; nl = chunk.indexOf(NEWLINE, start)) {
      const end = lineEnd(chunk, start, nl);
      this.emit(view.toString("utf8", start, end), end - start, out);
      start = nl + 1;
    }
    this.keep(chunk.subarray(start), out);
    return out;
  }

  /** Ends input: returns the last line when it had no trailing newline. */
  flush(): LineItem[] {
    if (this.discarding || this.pendingBytes === 0) {
      this.discarding = false;
      return [];
    }
    const last = this.takePending(new Uint8Array(0));
    const end = lineEnd(last, 0, last.length);
    // Pending bytes are already within the cap (`keep` drops them otherwise), so the last line is not re-measured.
    return [this.decoder.decode(last.subarray(0, end))];
  }

  /** Applies the length cap to a decoded line of `rawBytes` bytes (CR excluded). */
  private emit(line: string, rawBytes: number, out: LineItem[]): void {
    // The cap applies to the decoded line's UTF-8 length (an invalid byte decodes to 3 bytes), which is at most 3×
    // the raw length: measure only when the line might be over it.
    if (rawBytes * 3 > this.maxLineBytes) {
      const decodedBytes = Buffer.byteLength(line, "utf8");
      if (decodedBytes > this.maxLineBytes) {
        out.push(new LineTooLong(decodedBytes, this.maxLineBytes));
        return;
      }
    }
    out.push(line);
  }

  private keep(tail: Uint8Array, out: LineItem[]): void {
    if (tail.length === 0) return;
    if (this.pendingBytes + tail.length > this.maxLineBytes) {
      out.push(new LineTooLong(this.pendingBytes + tail.length, this.maxLineBytes));
      this.pending = [];
      this.pendingBytes = 0;
      this.discarding = true;
      return;
    }
    // Copy: the caller may reuse the chunk's memory after push returns.
    this.pending.push(tail.slice());
    this.pendingBytes += tail.length;
  }

  private takePending(rest: Uint8Array): Uint8Array {
    const joined = new Uint8Array(this.pendingBytes + rest.length);
    let offset = 0;
    for (const part of this.pending) {
      joined.set(part, offset);
      offset += part.length;
    }
    joined.set(rest, offset);
    this.pending = [];
    this.pendingBytes = 0;
    return joined;
  }
}

/** End of the line `bytes[start, nl)` without a trailing CR. */
function lineEnd(bytes: Uint8Array, start: number, nl: number): number {
  return nl > start && bytes[nl - 1] === CARRIAGE_RETURN ? nl - 1 : nl;
}
