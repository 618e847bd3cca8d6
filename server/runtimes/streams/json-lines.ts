/**
 * Line → JSON object. Third-party streams interleave banners, warnings and partial writes with their JSON, so a
 * line that is not a JSON object is reported as `undefined` (the parser turns it into `raw`), never an exception.
 */
import { isRecord } from "./tool-kind.ts";

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
