// The harness's own readers: split streams into SSE frames or lines whatever the chunking, and measure a process.
import { describe, expect, test } from "bun:test";
import { readBlocks, sseData } from "../../bench/support/daemon.ts";
import { measureProcess } from "../../bench/support/process.ts";

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

describe("readBlocks", () => {
  test("SSE frames split across chunks, and a multi-byte character split across chunks, arrive whole", async () => {
    const bytes = new TextEncoder().encode('id: 1\nevent: agent\ndata: {"t":"é"}\n\nid: 2\nevent: end\ndata: {}\n\n');
    const at = bytes.indexOf(0xa9); // second byte of "é"
    const blocks: string[] = [];
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.subarray(0, 10));
        controller.enqueue(bytes.subarray(10, at));
        controller.enqueue(bytes.subarray(at));
        controller.close();
      },
    });
    await readBlocks(stream, "\n\n", (block) => blocks.push(block));
    expect(blocks).toEqual(['id: 1\nevent: agent\ndata: {"t":"é"}', "id: 2\nevent: end\ndata: {}"]);
    expect(blocks.map(sseData)).toEqual(['{"t":"é"}', "{}"]);
  });

  test("lines, with a last one that has no newline", async () => {
    const lines: string[] = [];
    await readBlocks(streamOf(["a\nb", "c\n", "d"]), "\n", (line) => lines.push(line));
    expect(lines).toEqual(["a", "bc", "d"]);
  });
});

describe("measureProcess", () => {
  test("times a process to its exit with its stdout drained and a peak RSS", async () => {
    const measured = await measureProcess(["sh", "-c", "head -c 300000 /dev/zero; sleep 0.1"]);
    expect(measured.stdoutBytes).toBe(300_000);
    expect(measured.ms).toBeGreaterThanOrEqual(100);
    expect(measured.peakMb).toBeGreaterThan(0);
  });

  test("a command that fails has no speed: it throws with its stderr", async () => {
    await expect(measureProcess(["sh", "-c", "echo broken >&2; exit 3"])).rejects.toThrow(/exited 3: broken/);
  });
});
