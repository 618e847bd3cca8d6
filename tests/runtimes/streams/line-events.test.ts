/**
 * The bulk JSON-lines reader must give exactly the line reader's events, however the bytes are chunked, and must
 * actually take the bulk path for JSON lines (that is its whole point: no string per line).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { AgentEvent } from "../../../server/contracts/events.ts";
import { bulkJsonLines, type BulkJsonLines } from "../../../server/platform/bulk-json-lines.ts";
import { createStreamParser } from "../../../server/runtimes/streams/index.ts";
import { jsonRecordParser, rawRecord } from "../../../server/runtimes/streams/json-lines.ts";
import { createLineEventReader } from "../../../server/runtimes/streams/line-events.ts";
import type { StreamParser } from "../../../server/runtimes/streams/types.ts";
import { listFixtures } from "./golden.ts";

const enc = new TextEncoder();
const CHUNK_SIZES = [1, 7, 64, 333, 4096, 65536, Number.MAX_SAFE_INTEGER];

if (!bulkJsonLines) throw new Error("this runtime has no bulk JSON-lines parser: the bulk reader would go untested");
const nativeBulk: BulkJsonLines = bulkJsonLines;

/** Records and lines both come out as `raw` events carrying the record re-serialised, so the paths compare exactly. */
function probeParser(): StreamParser {
  return jsonRecordParser({ record: (record) => [rawRecord(record, undefined)], end: () => [{ type: "status", label: "done" }] });
}

function read(bytes: Uint8Array, chunkSize: number, parser: StreamParser, bulk?: BulkJsonLines, maxLineBytes = 8 * 1024 * 1024): AgentEvent[] {
  const reader = createLineEventReader(parser, maxLineBytes, bulk);
  const events: AgentEvent[] = [];
  for (let at = 0; at < bytes.length; at += chunkSize) events.push(...reader.push(bytes.subarray(at, at + chunkSize)));
  events.push(...reader.flush());
  return events;
}

/** Counts what the bulk parser was asked and what it answered. */
function spying(): { bulk: BulkJsonLines; calls: number; values: number } {
  const spy = {
    calls: 0,
    values: 0,
    bulk: (bytes: Uint8Array, start: number, end: number) => {
      const result = nativeBulk(bytes, start, end);
      spy.calls++;
      spy.values += result.values.length;
      return result;
    },
  };
  return spy;
}

/** Same chunking on both sides: how many bytes of an over-long line were seen before it was dropped depends on it. */
function expectSameAsLineReader(bytes: Uint8Array, maxLineBytes?: number): void {
  for (const size of CHUNK_SIZES) {
    expect(read(bytes, size, probeParser(), nativeBulk, maxLineBytes)).toEqual(read(bytes, size, probeParser(), undefined, maxLineBytes));
  }
}

describe("bulk JSON-lines reader", () => {
  test("every JSON-lines fixture gives the line reader's events, whatever the chunking", () => {
    const fixtures = listFixtures().filter((f) => createStreamParser(f.streamFormat, f.eventParser).pushRecord);
    expect(fixtures.length).toBeGreaterThan(20);
    for (const fixture of fixtures) {
      const bytes = enc.encode(readFileSync(fixture.file, "utf8").replaceAll("<CWD>", fixture.cwd));
      const parse = (size: number, bulk?: BulkJsonLines) => read(bytes, size, createStreamParser(fixture.streamFormat, fixture.eventParser, { cwd: fixture.cwd }), bulk);
      const expected = parse(Number.MAX_SAFE_INTEGER);
      for (const size of CHUNK_SIZES) expect({ fixture: fixture.file, size, events: parse(size, nativeBulk) }).toEqual({ fixture: fixture.file, size, events: expected });
    }
  });

  test("lines that are not one JSON object each take the line path, in order", () => {
    const lines = [
      '{"n":1}',
      "Warning: a banner before the JSON",
      '{"n":2}',
      "",
      "   ",
      '{"n":3}\r',
      '\ufeff{"n":4}',
      '{"n":5,',
      '"spread":"over two lines"}',
      "[1, 2]",
      "42",
      '"text"',
      "null",
      '{"n":6} trailing words',
      '{"n":7}{"n":8}',
      '  {"n":9}  ',
      '{"n":10,"text":"héllo → 世界"}',
      '{"n":11}',
    ];
    expectSameAsLineReader(enc.encode(`${lines.join("\n")}\n`));
    expectSameAsLineReader(enc.encode(`${lines.join("\n")}\n`.repeat(50)));
    expectSameAsLineReader(enc.encode(lines.join("\n"))); // no final newline
  });

  test("invalid UTF-8 and an over-long line read as on the line path", () => {
    const bytes = new Uint8Array([...enc.encode('{"n":1}\n{"bad":"'), 0xff, 0xfe, ...enc.encode('"} x\n{"n":2}\n'), ...enc.encode(`{"long":"${"y".repeat(300)}"}\n{"n":3}\n`)]);
    expectSameAsLineReader(bytes);
    expectSameAsLineReader(bytes, 100);
  });

  test("records holding invalid UTF-8 (stray bytes, a cut sequence, an encoded surrogate) decode as on the line path", () => {
    const record = (...bad: number[]) => [...enc.encode('{"bad":"'), ...bad, ...enc.encode('"}\n')];
    const bytes = new Uint8Array([...record(0xff, 0xfe), ...enc.encode('{"n":1}\n'), ...record(0xc2), ...record(0xed, 0xa0, 0x80), ...record(0xf0, 0x9f, 0x98, 0x80)]);
    expectSameAsLineReader(bytes);
    const spy = spying();
    read(bytes, bytes.length, probeParser(), spy.bulk);
    expect(spy.values).toBe(4); // every record but the chunk's first line, which the line buffer always takes
  });

  test("JSON lines are parsed in bulk: only the first and last line of a chunk become strings", () => {
    const line = (n: number) => `{"type":"text","n":${n},"part":{"text":"some words of output"}}`;
    const bytes = enc.encode(`${Array.from({ length: 2000 }, (_, n) => line(n)).join("\n")}\n`);
    const spy = spying();
    const stringLines: string[] = [];
    const parser = probeParser();
    const counting: StreamParser = { ...parser, push: (l) => (stringLines.push(l), parser.push(l)) };
    const events = read(bytes, 16 * 1024, counting, spy.bulk);
    expect(events.length).toBe(2001);
    const chunks = Math.ceil(bytes.length / (16 * 1024));
    expect(stringLines.length).toBeLessThanOrEqual(2 * chunks);
    expect(spy.values).toBe(2000 - stringLines.length);
  });

  test("a few non-ASCII lines do not send the rest of the chunk down the line path", () => {
    const line = (n: number) => `{"type":"text","n":${n},"text":"${n % 400 === 0 ? "naïve — café" : "plain words"}"}`;
    const bytes = enc.encode(`${Array.from({ length: 4000 }, (_, n) => line(n)).join("\n")}\n`);
    const spy = spying();
    const stringLines: string[] = [];
    const parser = probeParser();
    const counting: StreamParser = { ...parser, push: (l) => (stringLines.push(l), parser.push(l)) };
    expect(read(bytes, 64 * 1024, counting, spy.bulk)).toEqual(read(bytes, 64 * 1024, probeParser()));
    // The non-ASCII lines are parsed natively one by one; only each chunk's first and last line become strings.
    const chunks = Math.ceil(bytes.length / (64 * 1024));
    expect(stringLines.length).toBeLessThanOrEqual(2 * chunks);
    expect(spy.values).toBe(4000 - stringLines.length);
  });

  test("a chunk with scattered non-ASCII is rewritten to ASCII and parsed in one go; what is not JSON still reads as on the line path", () => {
    const lines = Array.from({ length: 600 }, (_, n) => {
      if (n % 150 === 7) return "Hinweis: Größe überschritten"; // a banner, non-ASCII, not JSON
      if (n % 150 === 8) return '\ufeff{"bom":"mid-stream"}';
      if (n % 150 === 9) return '{"n":9,"text":"ok"} · trailing';
      return JSON.stringify({ type: "text", n, text: n % 9 === 0 ? "Not logged in · Please run /login 😀" : "plain words of output" });
    });
    const bytes = enc.encode(`${lines.join("\n")}\n`);
    expectSameAsLineReader(bytes);
    const spy = spying();
    read(bytes, 64 * 1024, probeParser(), spy.bulk);
    expect(spy.calls).toBeLessThan(40); // not one call per non-ASCII line
    expect(spy.values).toBeGreaterThan(600 - 4 * 4 - 2 * 2);
  });

  test("dense non-ASCII text (not worth rewriting) reads as on the line path", () => {
    const lines = Array.from({ length: 300 }, (_, n) => JSON.stringify({ n, text: "你好，世界。这是一个测试。Привет, мир!" }));
    expectSameAsLineReader(enc.encode(`${lines.join("\n")}\n`));
  });

  test("without a bulk parser (Deno), or for a parser without records, the line reader is used", () => {
    const bytes = enc.encode('{"n":1}\n{"n":2}\n');
    const spy = spying();
    const linesOnly: StreamParser = { push: probeParser().push, end: () => [] };
    expect(read(bytes, 64, linesOnly, spy.bulk)).toHaveLength(2);
    expect(spy.calls).toBe(0);
    expect(read(bytes, 64, probeParser())).toHaveLength(3);
  });
});
