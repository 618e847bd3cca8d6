/**
 * The contract every wire-format parser implements: a small stateful object fed one line (or, for `plain`, one
 * decoded text chunk) at a time. Parsers are pure: no I/O, no clocks, and they never throw on third-party input.
 */
import type { AgentEvent } from "../../contracts/events.ts";

/** What a parser knows about the run it reads. */
export type ParserContext = {
  /** The run's working directory; tool paths inside it are reported relative to it. */
  cwd?: string;
};

/** A stateful wire-format parser. */
export interface StreamParser {
  /** Feeds one line (without its newline) and returns the events it completes. */
  push(line: string): AgentEvent[];
  /** Signals end of input and returns whatever was still pending. */
  end(): AgentEvent[];
  /**
   * JSON-lines parsers only: feeds a record that a bulk reader already parsed from one line, so the line never has to
   * exist as a string. `line` is the record's text when the caller has it; a `raw` event otherwise re-serialises it.
   */
  pushRecord?(record: Record<string, unknown>, line?: string): AgentEvent[];
}

/** Builds a parser for one run. */
export type StreamParserFactory = (ctx: ParserContext) => StreamParser;

/** Longest `raw` line we pass through; longer ones are cut so a garbage stream cannot balloon the event log. */
export const MAX_RAW_LINE_CHARS = 64 * 1024;

/** A `raw` event for a line no parser understood (bounded). */
export function rawEvent(line: string): AgentEvent {
  const bounded = line.length > MAX_RAW_LINE_CHARS ? `${line.slice(0, MAX_RAW_LINE_CHARS)}…[truncated]` : line;
  return { type: "raw", line: bounded };
}
