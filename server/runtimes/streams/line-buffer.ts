/**
 * Bytes → lines. Splits on `\n` at the byte level (a `\n` byte never occurs inside a multi-byte UTF-8 sequence, so
 * characters split across chunks are reassembled before decoding), strips a trailing `\r`, and caps line length so a
 * CLI that prints a huge line without a newline cannot grow memory without bound.
 */
import { perEvent } from "../../platform/jit-tiers.ts";
import { nodeBuffer } from "../../platform/node-buffer.ts";

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
  static {
    perEvent(this.prototype.push, this.prototype.decodeLine, this.prototype.splitText, this.prototype.emit, this.prototype.keep, this.prototype.takePending, withoutCr);
  }

  /** Decodes the stream's first line: it drops a leading BOM. */
  private readonly firstLineDecoder = new TextDecoder("utf-8");
  /** Decodes every later line: a BOM there is mid-text and kept, wherever the chunk boundaries fall. */
  private readonly decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  private atStart = true;
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private discarding = false;

  constructor(private readonly maxLineBytes = DEFAULT_MAX_LINE_BYTES) {}

  /**
   * Feeds a chunk and returns every line it completes, in order. The first line (which may continue bytes kept from
   * the previous chunk) is decoded on its own, so no chunk-sized buffer is joined just to prepend a few pending
   * bytes. The chunk's other complete lines are decoded as one string and cut with indexOf/slice, which share that
   * string's memory; String#split, which this replaces, cost more than the decoding itself.
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
    const nl = chunk.indexOf(NEWLINE, start);
    if (nl < 0) {
      this.keep(chunk.subarray(start), out);
      return out;
    }
    const first = this.pendingBytes > 0 ? this.takePending(chunk.subarray(start, nl)) : chunk.subarray(start, nl);
    this.emit(this.decodeLine(first.subarray(0, withoutCr(first))), out);
    const lastNl = chunk.lastIndexOf(NEWLINE);
    if (lastNl > nl) this.splitText(this.decoder.decode(chunk.subarray(nl + 1, lastNl)), out);
    this.keep(chunk.subarray(lastNl + 1), out);
    return out;
  }

  /** Ends input: returns the last line when it had no trailing newline. */
  flush(): LineItem[] {
    if (this.discarding || this.pendingBytes === 0) {
      this.discarding = false;
      return [];
    }
    const last = this.takePending(new Uint8Array(0));
    // Pending bytes are already within the cap (`keep` drops them otherwise), so the last line is not re-measured.
    return [this.decodeLine(last.subarray(0, withoutCr(last)))];
  }

  /** Decodes a line that may be the stream's first (a discarded over-long line counts as one too). */
  private decodeLine(bytes: Uint8Array): string {
    if (!this.atStart) return this.decoder.decode(bytes);
    this.atStart = false;
    return this.firstLineDecoder.decode(bytes);
  }

  /** Cuts decoded text (complete lines joined by `\n`, the last without one) into lines. */
  private splitText(text: string, out: LineItem[]): void {
    for (let start = 0; ; ) {
      const nl = text.indexOf("\n", start);
      const end = nl < 0 ? text.length : nl;
      this.emit(text.slice(start, end > start && text.charCodeAt(end - 1) === CARRIAGE_RETURN ? end - 1 : end), out);
      if (nl < 0) return;
      start = nl + 1;
    }
  }

  /** Applies the length cap to one decoded line (CR already stripped). */
  private emit(line: string, out: LineItem[]): void {
    // UTF-16 length * 3 bounds the UTF-8 length; only measure exactly when the line might be over the cap.
    if (line.length * 3 > this.maxLineBytes) {
      const bytes = nodeBuffer().Buffer.byteLength(line, "utf8");
      if (bytes > this.maxLineBytes) {
        out.push(new LineTooLong(bytes, this.maxLineBytes));
        return;
      }
    }
    out.push(line);
  }

  private keep(tail: Uint8Array, out: LineItem[]): void {
    if (tail.length === 0) return;
    if (this.pendingBytes + tail.length > this.maxLineBytes) {
      this.atStart = false;
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

/** Length of a line's bytes without a trailing CR. */
function withoutCr(bytes: Uint8Array): number {
  return bytes.length > 0 && bytes[bytes.length - 1] === CARRIAGE_RETURN ? bytes.length - 1 : bytes.length;
}
