/**
 * The layered reader: bytes → lines (LineBuffer) → parser → AgentEvent; for JSON-lines parsers under Bun, bytes →
 * records in bulk → parser (line-events.ts), with the same events. The parser never sees the process; the
 * caller supplies the byte stream (a child's stdout, a file, a test's chunks). The batch form yields the events of
 * one chunk at a time (one await per chunk instead of per event), which is what bulk consumers such as the event
 * log want; the flat form is the same stream one event at a time.
 */
import type { AgentEvent } from "../../contracts/events.ts";
import { bulkJsonLines } from "../../platform/bulk-json-lines.ts";
import { createStreamParser, takesTextChunks, type StreamFormat } from "./index.ts";
import { DEFAULT_MAX_LINE_BYTES } from "./line-buffer.ts";
import { createLineEventReader } from "./line-events.ts";
import type { ParserContext, StreamParser } from "./types.ts";

/** Options of the line layer. */
export type ReadOptions = { maxLineBytes?: number };

/** Feeds `source` through a line-oriented parser; yields the (non-empty) events of each chunk. */
export async function* readLineEventBatches(source: AsyncIterable<Uint8Array>, parser: StreamParser, options: ReadOptions = {}): AsyncGenerator<AgentEvent[]> {
  const reader = createLineEventReader(parser, options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES, bulkJsonLines);
  for await (const chunk of source) {
    const events = reader.push(chunk);
    if (events.length > 0) yield events;
  }
  const last = reader.flush();
  if (last.length > 0) yield last;
}

/** Feeds `source` as decoded text chunks (for `plain`); yields the events of each chunk. */
export async function* readTextEventBatches(source: AsyncIterable<Uint8Array>, parser: StreamParser): AsyncGenerator<AgentEvent[]> {
  const decoder = new TextDecoder("utf-8");
  for await (const chunk of source) {
    const events = parser.push(decoder.decode(chunk, { stream: true }));
    if (events.length > 0) yield events;
  }
  const last = [...parser.push(decoder.decode()), ...parser.end()];
  if (last.length > 0) yield last;
}

/** bytes → batches of AgentEvents for a runtime's stream format. */
export function readStreamEventBatches(
  source: AsyncIterable<Uint8Array>,
  streamFormat: StreamFormat,
  eventParser: string | undefined,
  ctx: ParserContext = {},
  options: ReadOptions = {},
): AsyncGenerator<AgentEvent[]> {
  const parser = createStreamParser(streamFormat, eventParser, ctx);
  return takesTextChunks(streamFormat) ? readTextEventBatches(source, parser) : readLineEventBatches(source, parser, options);
}

/** bytes → AgentEvents, one at a time, for a runtime's stream format. */
export async function* readStreamEvents(
  source: AsyncIterable<Uint8Array>,
  streamFormat: StreamFormat,
  eventParser: string | undefined,
  ctx: ParserContext = {},
  options: ReadOptions = {},
): AsyncGenerator<AgentEvent> {
  for await (const batch of readStreamEventBatches(source, streamFormat, eventParser, ctx, options)) yield* batch;
}

/** Line-oriented parser over `source`, one event at a time. */
export async function* readLineEvents(source: AsyncIterable<Uint8Array>, parser: StreamParser, options: ReadOptions = {}): AsyncGenerator<AgentEvent> {
  for await (const batch of readLineEventBatches(source, parser, options)) yield* batch;
}
