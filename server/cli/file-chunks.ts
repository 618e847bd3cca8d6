/**
 * A file's bytes, a chunk at a time, read into one buffer that every chunk reuses: each chunk is valid until the next
 * one is asked for. A read stream allocates a fresh buffer per chunk instead: for `od parse` over a 50 MB transcript
 * that was 50 MB of buffers to fault in and collect, and the stream's machinery around each read.
 */
import { closeSync, openSync, readSync } from "node:fs";

export async function* fileChunks(path: string, chunkBytes: number): AsyncGenerator<Uint8Array> {
  const fd = openSync(path, "r");
  try {
    const buffer = new Uint8Array(chunkBytes);
    for (;;) {
      const read = readSync(fd, buffer, 0, chunkBytes, null);
      if (read === 0) return;
      yield buffer.subarray(0, read);
    }
  } finally {
    closeSync(fd);
  }
}
