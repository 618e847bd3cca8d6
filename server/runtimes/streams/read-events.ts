/**
 * The layered reader: bytes → lines (LineBuffer) → parser → AgentEvent, as one async iterable. The parser never sees
 * the process; the caller supplies the byte stream (a child's stdout, a file, a test's chunks).
 */
import type { AgentEvent } from "../../contracts/events.ts";
import { createStreamParser, takesTextChunks, type StreamFormat } from "./index.ts";
import { DEFAULT_MAX_LINE_BYTES, LineBuffer, type LineItem } from "./line-buffer.ts";
import type { ParserContext, StreamParser } from "./types.ts";

/** Options of the line layer. */
export type ReadOptions = { maxLineBytes?: number };

/** Feeds `source` through a line-oriented parser. */
export async function* readLineEvents(source: AsyncIterable<Uint8Array>, parser: StreamParser, options: ReadOptions = {}): AsyncGenerator<AgentEvent> {
  const lines = new LineBuffer(options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
  for await (const chunk of source) yield* feed(parser, lines.push(chunk));
  yield* feed(parser, lines.flush());
  yield* parser.end();
}

/** Feeds `source` as decoded text chunks (for `plain`). */
export async function* readTextEvents(source: AsyncIterable<Uint8Array>, parser: StreamParser): AsyncGenerator<AgentEvent> {
  const decoder = new TextDecoder("utf-8");
  for await (const chunk of source) yield* parser.push(decoder.decode(chunk, { stream: true }));
  yield* parser.push(decoder.decode());
  yield* parser.end();
}

/** bytes → AgentEvents for a runtime's stream format. */
export function readStreamEvents(
  source: AsyncIterable<Uint8Array>,
  streamFormat: StreamFormat,
  eventParser: string | undefined,
  ctx: ParserContext = {},
  options: ReadOptions = {},
): AsyncGenerator<AgentEvent> {
  const parser = createStreamParser(streamFormat, eventParser, ctx);
  return takesTextChunks(streamFormat) ? readTextEvents(source, parser) : readLineEvents(source, parser, options);
}

function* feed(parser: StreamParser, items: LineItem[]): Generator<AgentEvent> {
  for (const item of items) {
    if (typeof item === "string") yield* parser.push(item);
    else yield { type: "error", code: item.code, message: item.message };
  }
}
