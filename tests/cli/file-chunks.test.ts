// server/cli/file-chunks.ts: `od parse` reads a transcript file through one reused buffer.
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileChunks } from "../../server/cli/file-chunks.ts";
import { tempDir } from "../support/temp.ts";

describe("fileChunks", () => {
  test("yields the file's bytes in order, in chunks of at most the size asked, all in one buffer", async () => {
    using dir = tempDir("od-file-chunks-");
    const bytes = Uint8Array.from({ length: 10_000 }, (_, i) => i % 251);
    writeFileSync(join(dir.path, "t.bin"), bytes);
    const seen: number[] = [];
    const buffers = new Set<ArrayBufferLike>();
    const sizes: number[] = [];
    for await (const chunk of fileChunks(join(dir.path, "t.bin"), 4096)) {
      // Each chunk is read before the next is asked for, as the parsers do.
      seen.push(...chunk);
      sizes.push(chunk.length);
      buffers.add(chunk.buffer);
    }
    expect(Uint8Array.from(seen)).toEqual(bytes);
    expect(sizes).toEqual([4096, 4096, 1808]);
    expect(buffers.size).toBe(1);
  });

  test("an empty file yields nothing; a missing one throws ENOENT at the first read", async () => {
    using dir = tempDir("od-file-chunks-");
    writeFileSync(join(dir.path, "empty"), "");
    const chunks: Uint8Array[] = [];
    for await (const chunk of fileChunks(join(dir.path, "empty"), 4096)) chunks.push(chunk);
    expect(chunks).toEqual([]);
    await expect(fileChunks(join(dir.path, "missing"), 4096).next()).rejects.toMatchObject({ code: "ENOENT" });
  });
});
