/**
 * Bun's native JSON-lines parser (`Bun.JSONL.parseChunk`): it parses a byte range of complete lines straight from
 * the bytes, with no string per line and no call per line. Deno (or a Bun without it) has none, and the stream
 * reader then splits lines itself. Feature-detected rather than imported, so the engine keeps running under Deno.
 */

/**
 * Parses the JSON values of `bytes[start, end)` up to the first text that is not JSON, and then sets `error`.
 * `read` is the offset just past the last value parsed (a byte offset when the range is ASCII); `done` says the whole
 * range was values and whitespace (no error, no value left open at its end).
 */
export type BulkJsonLines = (bytes: Uint8Array, start: number, end: number) => BulkJsonResult;
export type BulkJsonResult = { values: unknown[]; read: number; done: boolean; error: unknown };

type NativeJsonLines = { parseChunk(bytes: Uint8Array, start: number, end: number): BulkJsonResult };

const native = (globalThis as { Bun?: { JSONL?: NativeJsonLines } }).Bun?.JSONL;

/** The runtime's bulk JSON-lines parser, or undefined where there is none. */
export const bulkJsonLines: BulkJsonLines | undefined =
  typeof native?.parseChunk === "function" ? (bytes, start, end) => native.parseChunk(bytes, start, end) : undefined;
