/**
 * Bytes → events for line-oriented parsers, one chunk at a time. Two readers with the same output: the line reader
 * (LineBuffer → one string per line → `parser.push`) works everywhere; the bulk reader, for JSON-lines parsers on a
 * runtime with a native JSON-lines parser, parses a chunk's complete lines in one call and feeds the records straight
 * to `parser.pushRecord`, so no line ever becomes a string (that and the per-line call were half the reading cost).
 */
import { perEvent } from "../../platform/jit-tiers.ts";
import { nodeBuffer } from "../../platform/node-buffer.ts";
import type { AgentEvent } from "../../contracts/events.ts";
import type { BulkJsonLines } from "../../platform/bulk-json-lines.ts";
import { AsciiJsonRewriter } from "./ascii-json.ts";
import { DEFAULT_MAX_LINE_BYTES, LineBuffer, type LineItem } from "./line-buffer.ts";
import { NonAsciiFinder } from "./non-ascii.ts";
import type { StreamParser } from "./types.ts";
import type { JsonRecord } from "./json-lines.ts";
import { isRecord } from "./wire.ts";

/** Turns a parser's byte stream into events: `push` each chunk, then `flush` once at end of input. */
export interface LineEventReader {
  push(chunk: Uint8Array): AgentEvent[];
  /** The last line's events and the parser's pending ones. */
  flush(): AgentEvent[];
}

const NEWLINE = 0x0a;
const OPEN_BRACE = 0x7b;
/** From this many bytes on, a range of complete lines is checked for non-ASCII bytes natively. */
const NATIVE_ASCII_CHECK_FROM = 16 * 1024;

/** The reader for `parser`: the bulk one when both the parser and the runtime support it. */
export function createLineEventReader(parser: StreamParser, maxLineBytes = DEFAULT_MAX_LINE_BYTES, bulk?: BulkJsonLines): LineEventReader {
  return bulk && parser.pushRecord ? new BulkJsonLineReader(parser, parser.pushRecord, bulk, maxLineBytes) : new LineReader(parser, maxLineBytes);
}

class LineReader implements LineEventReader {
  static {
    perEvent(this.prototype.push);
  }

  private readonly lines: LineBuffer;
  constructor(
    private readonly parser: StreamParser,
    maxLineBytes: number,
  ) {
    this.lines = new LineBuffer(maxLineBytes);
  }
  push(chunk: Uint8Array): AgentEvent[] {
    return feedLines(this.parser, this.lines.push(chunk));
  }
  flush(): AgentEvent[] {
    return flushLines(this.parser, this.lines);
  }
}

/**
 * The first line of a chunk (which may continue the previous chunk's bytes) and its unfinished last line go through
 * a LineBuffer, as in the line reader; the complete lines between go to the bulk parser. Its records are used only
 * where they are provably one JSON object per line; every other line (a banner, a blank line, a value spread over
 * lines, an array) takes the line path. So the events never depend on where chunk boundaries fall, and equal the line
 * reader's, except that a `raw` event for a record no parser branch understood carries the record re-serialised.
 *
 * Multi-line ranges go to the native parser only as ASCII: one non-ASCII byte makes it decode the whole range to
 * UTF-16 (a cost that grows with the range, not with the non-ASCII text) and its `read` stops being a byte offset. A
 * range with a few such characters is rewritten with `\u` escapes (ascii-json.ts) and parsed in one go; one with many,
 * or with invalid UTF-8, is cut at them: the ASCII lines between go in bulk, each other line is parsed on its own.
 */
class BulkJsonLineReader implements LineEventReader {
  static {
    perEvent(this.prototype.push, this.prototype.completeLines, this.prototype.withNonAscii, this.prototype.nonAsciiLine, this.prototype.bulkLines, this.prototype.pushRecords, this.prototype.viaLines);
  }

  private readonly lines: LineBuffer;
  private readonly rewriter = new AsciiJsonRewriter();
  constructor(
    private readonly parser: StreamParser,
    private readonly pushRecord: (record: JsonRecord) => AgentEvent[],
    private readonly bulk: BulkJsonLines,
    private readonly maxLineBytes: number,
  ) {
    this.lines = new LineBuffer(maxLineBytes);
  }

  push(chunk: Uint8Array): AgentEvent[] {
    const firstNl = chunk.indexOf(NEWLINE);
    if (firstNl < 0) return feedLines(this.parser, this.lines.push(chunk));
    const out = feedLines(this.parser, this.lines.push(chunk.subarray(0, firstNl + 1)));
    const lastNl = chunk.lastIndexOf(NEWLINE);
    // A range longer than the line cap may hold an over-long line, which only the line path measures and drops.
    if (lastNl > firstNl) {
      if (lastNl - firstNl <= this.maxLineBytes) this.completeLines(chunk, firstNl + 1, lastNl + 1, out);
      else this.viaLines(chunk, firstNl + 1, lastNl + 1, out);
    }
    if (lastNl + 1 < chunk.length) append(out, feedLines(this.parser, this.lines.push(chunk.subarray(lastNl + 1))));
    return out;
  }

  flush(): AgentEvent[] {
    return flushLines(this.parser, this.lines);
  }

  /** `chunk[start, end)` is whole lines, each ending in a newline; the line buffer holds nothing meanwhile. */
  private completeLines(chunk: Uint8Array, start: number, end: number, out: AgentEvent[]): void {
    // A small range is scanned here: node:buffer's SIMD `isAscii` pays off on large ones, and loading node:buffer cost
    // a short run's first chunk ~0.15 ms.
    const finder = end - start > NATIVE_ASCII_CHECK_FROM ? undefined : new NonAsciiFinder(chunk);
    if (finder ? finder.indexOf(start, end) < 0 : nodeBuffer().isAscii(chunk.subarray(start, end))) return this.bulkLines(chunk, chunk, start, end, out);
    return this.withNonAscii(chunk, start, end, out, finder ?? new NonAsciiFinder(chunk));
  }

  /** `chunk[start, end)` is whole lines, some holding non-ASCII bytes (`finder` scans `chunk`). */
  private withNonAscii(chunk: Uint8Array, start: number, end: number, out: AgentEvent[], finder: NonAsciiFinder): void {
    const ascii = this.rewriter.rewrite(chunk, start, end, finder);
    if (ascii) {
      this.bulkLines(chunk, ascii.bytes, 0, ascii.length, out, this.rewriter);
      this.rewriter.release();
      return;
    }
    for (let at = start; ; ) {
      const nonAscii = finder.indexOf(at, end);
      // `at` starts a line, so the newline before a non-ASCII byte at or after it is at `at - 1` or later.
      const lineStart = nonAscii < 0 ? end : chunk.lastIndexOf(NEWLINE, nonAscii) + 1;
      if (lineStart > at) this.bulkLines(chunk, chunk, at, lineStart, out);
      if (nonAscii < 0) return;
      at = chunk.indexOf(NEWLINE, nonAscii) + 1;
      this.nonAsciiLine(chunk, lineStart, at, out);
    }
  }

  /**
   * One line holding non-ASCII bytes, parsed on its own (its decoding stays the size of the line). The native parser
   * decodes UTF-8 as TextDecoder does, invalid bytes included; `done` with one object means the line held exactly that
   * object and whitespace. A line not starting with `{` (a BOM is not JSON whitespace) goes the line path.
   */
  private nonAsciiLine(chunk: Uint8Array, start: number, end: number, out: AgentEvent[]): void {
    if (chunk[start + leadingSpaces(chunk, start, end)] === OPEN_BRACE) {
      const { values, done } = this.bulk(chunk, start, end);
      if (done && values.length === 1 && isRecord(values[0])) return append(out, this.pushRecord(values[0]));
    }
    this.viaLines(chunk, start, end, out);
  }

  /**
   * Parses the whole lines `bytes[start, end)` natively. `bytes` is the chunk, or an ASCII rewrite of a range of it
   * (same lines; `rewrite` maps a line boundary back), and a line the native parser cannot take goes the line path
   * from the chunk's own bytes.
   */
  private bulkLines(chunk: Uint8Array, bytes: Uint8Array, start: number, end: number, out: AgentEvent[], rewrite?: AsciiJsonRewriter): void {
    const viaLines = (from: number, to: number) =>
      rewrite ? this.viaLines(chunk, rewrite.sourceOffset(from), rewrite.sourceOffset(to), out) : this.viaLines(chunk, from, to, out);
    for (let at = start; at < end; ) {
      const { values, error, read } = this.bulk(bytes, at, end);
      // For k values, the newlines ending lines k - 1 and k: each value must end on its own line, after the one before.
      const previousEnd = values.length > 1 ? nthNewline(bytes, at, values.length - 1) : at - 1;
      const lineEnd = values.length > 0 ? bytes.indexOf(NEWLINE, previousEnd + 1) : at - 1;
      // k values, the last ending on line k: two values never share a line, so each holds exactly one line.
      const linesFound = values.length < 2 || previousEnd >= 0;
      const aligned = values.length === 0 || (linesFound && read > previousEnd && read <= lineEnd && allRecords(values));
      if (!aligned) return viaLines(at, end);
      if (values.length > 0 && !onlySpaces(bytes, read, lineEnd)) {
        // Text after the last value on its line (`{…} trailing`): the lines before are records, that line goes alone.
        this.pushRecords(values as JsonRecord[], values.length - 1, out);
        viaLines(previousEnd + 1, lineEnd + 1);
        at = lineEnd + 1;
        continue;
      }
      this.pushRecords(values as JsonRecord[], values.length, out);
      at = lineEnd + 1;
      // Without an error, what is left is blank lines or a value still open at the range's end (raw on the line path).
      if (error == null) return viaLines(at, end);
      // The native parser stopped at a line that is not JSON (the next one, or one after blank ones): it goes alone.
      const next = bytes.indexOf(NEWLINE, at) + 1;
      viaLines(at, next);
      at = next;
    }
  }

  /**
   * The first `count` records' events, into `out`. A loop of its own, apart from `bulkLines`: the engine's optimizing
   * tier then compiles this small loop (it runs once per line) and leaves `bulkLines` (once per chunk) alone.
   */
  private pushRecords(records: JsonRecord[], count: number, out: AgentEvent[]): void {
    for (let i = 0; i < count; i++) append(out, this.pushRecord(records[i]!));
  }

  private viaLines(chunk: Uint8Array, start: number, end: number, out: AgentEvent[]): void {
    if (end > start) append(out, feedLines(this.parser, this.lines.push(chunk.subarray(start, end))));
  }
}

/** The offset of the `n`-th newline (n ≥ 1) at or after `from`, or -1 when there are fewer. */
function nthNewline(bytes: Uint8Array, from: number, n: number): number {
  let at = from - 1;
  for (let i = 0; i < n && (i === 0 || at >= 0); i++) at = bytes.indexOf(NEWLINE, at + 1);
  return at;
}

/** How many JSON whitespace bytes `bytes[from, to)` starts with. */
function leadingSpaces(bytes: Uint8Array, from: number, to: number): number {
  let i = from;
  while (i < to && isJsonSpace(bytes[i]!)) i++;
  return i - from;
}

const isJsonSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0d;

/** True when `bytes[from, to)` is only JSON whitespace. */
function onlySpaces(bytes: Uint8Array, from: number, to: number): boolean {
  return leadingSpaces(bytes, from, to) === to - from;
}

/** Feeds decoded lines to the parser; an over-long line becomes a typed error event and reading goes on. */
function feedLines(parser: StreamParser, items: LineItem[]): AgentEvent[] {
  const out: AgentEvent[] = [];
  for (const item of items) {
    if (typeof item === "string") append(out, parser.push(item));
    else out.push({ type: "error", code: item.code, message: item.message });
  }
  return out;
}

perEvent(feedLines, allRecords, append, nthNewline, onlySpaces, leadingSpaces);

function flushLines(parser: StreamParser, lines: LineBuffer): AgentEvent[] {
  const out = feedLines(parser, lines.flush());
  append(out, parser.end());
  return out;
}

/** `values.every(isRecord)` as a function of od's, kept below the top tier with the others named above. */
function allRecords(values: unknown[]): boolean {
  for (let i = 0; i < values.length; i++) if (!isRecord(values[i])) return false;
  return true;
}

/** Appends in place (a spread would copy `from` onto the stack). */
function append(into: AgentEvent[], from: AgentEvent[]): void {
  for (let i = 0; i < from.length; i++) into.push(from[i] as AgentEvent);
}
