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
  private readonly decoder = new TextDecoder("utf-8");
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private discarding = false;

  constructor(private readonly maxLineBytes = DEFAULT_MAX_LINE_BYTES) {}

  /** Feeds a chunk and returns every line it completes, in order. */
  push(chunk: Uint8Array): LineItem[] {
    const out: LineItem[] = [];
    let start = 0;
    if (this.discarding) {
      const nl = chunk.indexOf(NEWLINE);
      if (nl < 0) return out;
      this.discarding = false;
      start = nl + 1;
    }
    const lastNl = chunk.lastIndexOf(NEWLINE);
    if (lastNl < start) {
      this.keep(chunk.subarray(start), out);
      return out;
    }
    let body = chunk.subarray(start, lastNl);
    if (this.pendingBytes > 0) body = this.takePending(body);
    this.splitDecoded(body, out);
    this.keep(chunk.subarray(lastNl + 1), out);
    return out;
  }

  /** Ends input: returns the last line when it had no trailing newline. */
  flush(): LineItem[] {
    if (this.discarding || this.pendingBytes === 0) {
      this.discarding = false;
      return [];
    }
    const bytes = this.takePending(new Uint8Array(0));
    return [this.decodeLine(bytes)];
  }

  private splitDecoded(body: Uint8Array, out: LineItem[]): void {
    const text = this.decoder.decode(body);
    const lines = text.split("\n");
    for (const line of lines) {
      const clean = line.charCodeAt(line.length - 1) === CARRIAGE_RETURN ? line.slice(0, -1) : line;
      // UTF-16 length * 3 bounds the UTF-8 length; only measure exactly when the line might be over the cap.
      if (clean.length * 3 > this.maxLineBytes) {
        const bytes = Buffer.byteLength(clean, "utf8");
        if (bytes > this.maxLineBytes) {
          out.push(new LineTooLong(bytes, this.maxLineBytes));
          continue;
        }
      }
      out.push(clean);
    }
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

  private decodeLine(bytes: Uint8Array): string {
    const end = bytes.length > 0 && bytes[bytes.length - 1] === CARRIAGE_RETURN ? bytes.length - 1 : bytes.length;
    return this.decoder.decode(bytes.subarray(0, end));
  }
}
