import { describe, expect, test } from "bun:test";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fdWriter } from "../../server/cli/fd-writer.ts";

const decoder = new TextDecoder();
const errno = (code: string) => Object.assign(new Error(code), { code });

/** A stream double that records what reaches it. */
function recordingStream() {
  const chunks: string[] = [];
  return { stream: { write: (chunk: Uint8Array) => void chunks.push(decoder.decode(chunk)) }, text: () => chunks.join("") };
}

describe("fdWriter", () => {
  test("writes straight to the descriptor, in order, without building the stream", () => {
    const dir = mkdtempSync(join(tmpdir(), "od-fd-writer-"));
    const path = join(dir, "out.txt");
    const fd = openSync(path, "w");
    let streamBuilt = false;
    const write = fdWriter(fd, () => ((streamBuilt = true), recordingStream().stream));
    write("od listening on http://127.0.0.1:1/?token=x\n");
    write("");
    write("ünïcödé ✓\n");
    closeSync(fd);
    expect(readFileSync(path, "utf8")).toBe("od listening on http://127.0.0.1:1/?token=x\nünïcödé ✓\n");
    expect(streamBuilt).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });

  test("successive writes are encoded into one reused buffer, not a new array each", () => {
    const buffers = new Set<ArrayBufferLike>();
    const write = fdWriter(1, () => recordingStream().stream, (_fd, bytes) => {
      buffers.add(bytes.buffer);
      return bytes.length;
    });
    for (let i = 0; i < 5; i++) write(`{"type":"text_delta","delta":"line ${i}"}\n`);
    expect(buffers.size).toBe(1);
  });

  test("the buffer is as large as the text needs: a line gets a small one, a long batch a larger one, reused after", () => {
    const sizes: number[] = [];
    const write = fdWriter(1, () => recordingStream().stream, (_fd, bytes) => {
      sizes.push(bytes.buffer.byteLength);
      return bytes.length;
    });
    write("od listening on http://127.0.0.1:1/?token=x\n");
    write("x".repeat(50_000));
    write("a short line\n");
    write("y".repeat(2_000_000));
    expect(sizes[0]).toBeLessThanOrEqual(4096);
    expect(sizes[1]).toBeGreaterThanOrEqual(50_000);
    expect(sizes[2]).toBe(sizes[1]!); // grown once, kept
    expect(Math.max(...sizes)).toBe(256 * 1024); // never larger than its largest size
  });

  test("text larger than the buffer goes out whole and in order, never splitting a character", () => {
    const unit = "abc é ✓ 😀\n";
    const text = unit.repeat(60_000); // ~900 KB of UTF-8: several buffer loads
    const chunks: Uint8Array[] = [];
    const write = fdWriter(1, () => recordingStream().stream, (_fd, bytes) => {
      chunks.push(bytes.slice());
      return bytes.length;
    });
    write(text);
    expect(chunks.length).toBeGreaterThan(1);
    // Each write decodes on its own: no character was cut between two writes.
    for (const chunk of chunks) expect(() => new TextDecoder("utf-8", { fatal: true }).decode(chunk)).not.toThrow();
    expect(chunks.map((chunk) => decoder.decode(chunk)).join("")).toBe(text);
  });

  test("a partial write is finished by further writes", () => {
    const written: string[] = [];
    const write = fdWriter(1, () => recordingStream().stream, (_fd, bytes) => {
      const n = Math.min(3, bytes.length);
      written.push(decoder.decode(bytes.subarray(0, n)));
      return n;
    });
    write("abcdefgh");
    expect(written).toEqual(["abc", "def", "gh"]);
  });

  test("EAGAIN hands the unwritten rest, and everything after it, to the stream", () => {
    const fdBytes: string[] = [];
    const { stream, text } = recordingStream();
    let calls = 0;
    const write = fdWriter(1, () => stream, (_fd, bytes) => {
      if (++calls === 2) throw errno("EAGAIN");
      fdBytes.push(decoder.decode(bytes.subarray(0, 4)));
      return Math.min(4, bytes.length);
    });
    write("first line\n");
    write("second\n");
    expect(fdBytes).toEqual(["firs"]);
    expect(text()).toBe("t line\nsecond\n");
    expect(calls).toBe(2);
  });

  test("a reader that went away (EPIPE) drops the output instead of throwing", () => {
    let calls = 0;
    let streamBuilt = false;
    const write = fdWriter(1, () => ((streamBuilt = true), recordingStream().stream), () => {
      calls++;
      throw errno("EPIPE");
    });
    expect(() => write("a\n")).not.toThrow();
    expect(() => write("b\n")).not.toThrow();
    expect(calls).toBe(1);
    expect(streamBuilt).toBe(false);
  });
});
