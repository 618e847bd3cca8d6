import { describe, expect, test } from "bun:test";
import { LineBuffer, LineTooLong, type LineItem } from "../../../server/runtimes/streams/line-buffer.ts";
import { readLineEvents } from "../../../server/runtimes/streams/read-events.ts";
import { createRawParser } from "../../../server/runtimes/streams/index.ts";
import { chunkBytes, collectAll, streamFromChunks } from "../../support/stream-chunks.ts";

const enc = new TextEncoder();

function run(chunks: (string | Uint8Array)[], max?: number): LineItem[] {
  const buffer = new LineBuffer(max);
  const out: LineItem[] = [];
  for (const c of chunks) out.push(...buffer.push(typeof c === "string" ? enc.encode(c) : c));
  out.push(...buffer.flush());
  return out;
}

describe("LineBuffer", () => {
  test("split mid-line", () => {
    expect(run(['{"a":', '1}\n{"b"', ":2}\n"])).toEqual(['{"a":1}', '{"b":2}']);
  });

  test("split mid-UTF-8 character", () => {
    const bytes = enc.encode("héllo → 世界\n");
    const cut = bytes.indexOf(0xe4) + 1; // inside the 3-byte 世
    expect(run([bytes.subarray(0, 2), bytes.subarray(2, cut), bytes.subarray(cut)])).toEqual(["héllo → 世界"]);
  });

  test("a BOM is dropped only at the start of the stream, wherever the chunks are cut", () => {
    expect(run(["\ufeffa\n", "\ufeffb\n\ufeffc\n", "\ufeffd"])).toEqual(["a", "\ufeffb", "\ufeffc", "\ufeffd"]);
  });

  test("CRLF, including a CR and LF split between chunks", () => {
    expect(run(["a\r\nb\r", "\nc\r\n"])).toEqual(["a", "b", "c"]);
  });

  test("last line without trailing newline is flushed", () => {
    expect(run(["one\ntwo"])).toEqual(["one", "two"]);
    expect(run(["one\r\ntwo\r"])).toEqual(["one", "two"]);
  });

  test("many 1-byte chunks", () => {
    const text = '{"type":"x","t":"ü€😀"}\r\n\n{"y":1}\n';
    expect(run(chunkBytes(enc.encode(text), 1))).toEqual(['{"type":"x","t":"ü€😀"}', "", '{"y":1}']);
  });

  test("oversized line across chunks is dropped with one typed error, the next line survives", () => {
    const out = run(["x".repeat(6), "x".repeat(6), "xxxx\nok\n"], 10);
    expect(out.length).toBe(2);
    expect(out[0]).toBeInstanceOf(LineTooLong);
    expect((out[0] as LineTooLong).code).toBe("LINE_TOO_LONG");
    expect(out[1]).toBe("ok");
  });

  test("oversized line inside one chunk is dropped, the next line survives", () => {
    const out = run([`${"y".repeat(20)}\nok\n`], 10);
    expect(out[0]).toBeInstanceOf(LineTooLong);
    expect(out[1]).toBe("ok");
  });

  test("oversized line without newline at end of input is dropped", () => {
    const out = run(["z".repeat(30)], 10);
    expect(out.length).toBe(1);
    expect(out[0]).toBeInstanceOf(LineTooLong);
  });

  test("default cap is 8 MiB", () => {
    const big = new Uint8Array(8 * 1024 * 1024 + 10).fill(0x61);
    const out = run([big, "\nafter\n"]);
    expect(out[0]).toBeInstanceOf(LineTooLong);
    expect(out[1]).toBe("after");
  });

  test("chunk memory reused by the caller does not corrupt pending bytes", () => {
    const buffer = new LineBuffer();
    const chunk = enc.encode("abc");
    expect(buffer.push(chunk)).toEqual([]);
    chunk.fill(0x7a);
    expect(buffer.push(enc.encode("\n"))).toEqual(["abc"]);
  });
});

describe("readLineEvents", () => {
  test("an oversized line becomes a LINE_TOO_LONG error event and reading continues", async () => {
    const events = await collectAll(readLineEvents(streamFromChunks(["a".repeat(50), "\nnext"]), createRawParser(), { maxLineBytes: 16 }));
    expect(events).toEqual([
      { type: "error", code: "LINE_TOO_LONG", message: "line longer than 16 bytes (50+ seen) was skipped" },
      { type: "raw", line: "next" },
    ]);
  });
});
