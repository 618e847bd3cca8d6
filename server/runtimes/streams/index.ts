/**
 * Dispatch from a runtime def's `streamFormat` (+ `eventParser` for `json-event-stream`) to a parser. These lists are
 * the single source of truth: `od parse`, the fuzz test and the benchmark iterate them, so a new parser is covered
 * as soon as it is registered here.
 */
import { createClaudeParser } from "./claude.ts";
import { createCodexParser } from "./codex.ts";
import { createCopilotParser } from "./copilot.ts";
import { createCursorAgentParser } from "./cursor-agent.ts";
import { isBlank } from "./json-lines.ts";
import { createOpencodeParser } from "./opencode.ts";
import { createPlainParser } from "./plain.ts";
import { createQoderParser } from "./qoder.ts";
import { isJsonEventParser, JSON_EVENT_PARSERS, STREAM_FORMATS, type JsonEventParser, type StreamFormat } from "./formats.ts";
import { rawEvent, type ParserContext, type StreamParser, type StreamParserFactory } from "./types.ts";

export type { ParserContext, StreamParser, StreamParserFactory } from "./types.ts";

export { isJsonEventParser, isStreamFormat, JSON_EVENT_PARSERS, STREAM_FORMATS, takesTextChunks } from "./formats.ts";
export type { JsonEventParser, StreamFormat } from "./formats.ts";

const FORMAT_FACTORIES: Record<Exclude<StreamFormat, "json-event-stream">, StreamParserFactory> = {
  "claude-stream-json": createClaudeParser,
  "copilot-stream-json": createCopilotParser,
  "qoder-stream-json": createQoderParser,
  plain: createPlainParser,
};

const JSON_EVENT_FACTORIES: Record<JsonEventParser, StreamParserFactory> = {
  codex: createCodexParser,
  "cursor-agent": createCursorAgentParser,
  opencode: createOpencodeParser,
  mimo: createOpencodeParser,
};

/** Every (format, parser) pair we can build; the fuzz test and benchmark iterate this. */
export const PARSER_VARIANTS: readonly { streamFormat: StreamFormat; eventParser?: JsonEventParser }[] = [
  ...STREAM_FORMATS.filter((f) => f !== "json-event-stream").map((streamFormat) => ({ streamFormat })),
  ...JSON_EVENT_PARSERS.map((eventParser) => ({ streamFormat: "json-event-stream" as const, eventParser })),
];

/**
 * Builds the parser for one run. A `json-event-stream` without a known `eventParser` degrades to a parser that
 * passes every line through as `raw`, so a misconfigured def still shows its output.
 */
export function createStreamParser(streamFormat: StreamFormat, eventParser: string | undefined, ctx: ParserContext = {}): StreamParser {
  if (streamFormat !== "json-event-stream") return FORMAT_FACTORIES[streamFormat](ctx);
  if (eventParser !== undefined && isJsonEventParser(eventParser)) return JSON_EVENT_FACTORIES[eventParser](ctx);
  return createRawParser();
}

/** A parser that passes every non-blank line through as `raw`. */
export function createRawParser(): StreamParser {
  return {
    push: (line) => (isBlank(line) ? [] : [rawEvent(line)]),
    end: () => [],
  };
}
