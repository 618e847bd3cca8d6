/**
 * The names of the line-oriented stream formats and json-event-stream sub-parsers, with no parser code attached, so
 * help texts and validation can list them without loading every parser.
 */

/** Line-oriented stream formats handled here (JSON-RPC protocols live in runtimes/protocols/). */
export const STREAM_FORMATS = ["claude-stream-json", "json-event-stream", "copilot-stream-json", "qoder-stream-json", "plain"] as const;
export type StreamFormat = (typeof STREAM_FORMATS)[number];

/** Sub-parsers of `json-event-stream`. `mimo` shares opencode's event shapes. */
export const JSON_EVENT_PARSERS = ["codex", "cursor-agent", "opencode", "mimo"] as const;
export type JsonEventParser = (typeof JSON_EVENT_PARSERS)[number];

/** True when `value` names a stream format of this module. */
export function isStreamFormat(value: string): value is StreamFormat {
  return (STREAM_FORMATS as readonly string[]).includes(value);
}

/** True when `value` names a json-event-stream sub-parser. */
export function isJsonEventParser(value: string): value is JsonEventParser {
  return (JSON_EVENT_PARSERS as readonly string[]).includes(value);
}

/** True for formats whose parser takes decoded text chunks rather than lines. */
export function takesTextChunks(streamFormat: StreamFormat): boolean {
  return streamFormat === "plain";
}
