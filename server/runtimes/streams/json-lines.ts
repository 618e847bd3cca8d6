/**
 * Line → JSON object. Third-party streams interleave banners, warnings and partial writes with their JSON, so a
 * line that is not a JSON object is reported as `undefined` (the parser turns it into `raw`), never an exception.
 */
import type { AgentEvent } from "../../contracts/events.ts";
import { isRecord } from "./tool-kind.ts";
import { rawEvent, type StreamParser } from "./types.ts";
import { perEvent } from "../../platform/jit-tiers.ts";

/** A parsed wire record: any JSON object. */
export type JsonRecord = Record<string, unknown>;

const OPEN_BRACE = 0x7b;

/** Parses one line into a JSON object, or `undefined` when it is not one. */
export function parseJsonLine(line: string): JsonRecord | undefined {
  // Almost every line of a JSON stream starts with `{`: skip the whitespace scan for those.
  if (line.charCodeAt(0) !== OPEN_BRACE && firstNonSpace(line) !== OPEN_BRACE) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** True for a line that carries nothing (empty or whitespace). Parsers skip these silently. */
export function isBlank(line: string): boolean {
  return line.charCodeAt(0) !== OPEN_BRACE && firstNonSpace(line) === -1;
}

/** Char code of the first character that is not whitespace (or a BOM), or -1 for a blank line. */
function firstNonSpace(line: string): number {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0a && c !== 0xfeff) return c;
  }
  return -1;
}

/** What a JSON-lines parser implements: one parsed record in, the events it completes out. */
export type JsonRecordHandlers = {
  /** `line` is the record's text when the reader has it (see `rawRecord`). */
  record(record: JsonRecord, line: string | undefined): AgentEvent[];
  end(): AgentEvent[];
};

/**
 * A StreamParser over JSON records: `push` skips blank lines and turns a line that is not a JSON object into `raw`,
 * the way every JSON-lines format wants; `pushRecord` takes records a bulk reader parsed without making line strings.
 */
export function jsonRecordParser(handlers: JsonRecordHandlers): StreamParser {
  const parser: StreamParser = {
    push(line) {
      if (isBlank(line)) return [];
      const record = parseJsonLine(line);
      return record ? handlers.record(record, line) : [rawEvent(line)];
    },
    pushRecord: handlers.record,
    end: handlers.end,
  };
  perEvent(parser.push, handlers.record);
  return parser;
}

/** The `raw` event of a record no branch understood: its line as received, or the record re-serialised. */
export function rawRecord(record: JsonRecord, line: string | undefined): AgentEvent {
  return rawEvent(line ?? JSON.stringify(record));
}
