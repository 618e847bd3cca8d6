/** Helpers for chunk-boundary tests of the stream reader. */

/** An async iterable yielding the given chunks (strings are UTF-8 encoded). */
export async function* streamFromChunks(chunks: (string | Uint8Array)[]): AsyncGenerator<Uint8Array> {
  const encoder = new TextEncoder();
  for (const chunk of chunks) yield typeof chunk === "string" ? encoder.encode(chunk) : chunk;
}

/** Splits bytes into chunks of `size` bytes. */
export function chunkBytes(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

/** Drains an async iterable into an array. */
export async function collectAll<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of source) out.push(item);
  return out;
}
