/**
 * Line → JSON object. Third-party streams interleave banners, warnings and partial writes with their JSON, so a
 * line that is not a JSON object is reported as `undefined` (the parser turns it into `raw`), never an exception.
 */
import { isRecord } from "./tool-kind.ts";

/** A parsed wire record: any JSON object. */
export type JsonRecord = Record<string, unknown>;

/** Parses one line into a JSON object, or `undefined` when it is not one. */
export function parseJsonLine(line: string): JsonRecord | undefined {
  const first = firstNonSpace(line);
  if (first !== "{") return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** True for a line that carries nothing (empty or whitespace). Parsers skip these silently. */
export function isBlank(line: string): boolean {
  return firstNonSpace(line) === undefined;
}

function firstNonSpace(line: string): string | undefined {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0a && c !== 0xfeff) return line[i];
  }
  return undefined;
}
