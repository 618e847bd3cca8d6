/**
 * Tiny readers for untyped wire records. Third-party JSON is read field by field with these instead of being
 * validated as a whole, so one unexpected field never drops a record.
 */
import type { Usage } from "../../contracts/events.ts";
import { isRecord } from "./tool-kind.ts";
import { perEvent } from "../../platform/jit-tiers.ts";

export { isRecord };

/** The field as a string, or undefined. */
export function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** The field as a finite number, or undefined. */
export function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** The field as an object, or undefined. */
export function obj(value: unknown): Record<string, unknown> | undefined {
  return isRecord(value) ? value : undefined;
}

/** The field as an array (empty when it is not one). */
export function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** Turns tool output of any shape into display text: strings as is, content blocks joined, the rest as JSON. */
export function stringifyContent(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return "";
  if (Array.isArray(value)) {
    const texts = value.map((part) => (isRecord(part) && typeof part.text === "string" ? part.text : undefined));
    if (texts.every((t) => t !== undefined)) return texts.join("\n");
  }
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return String(value);
  }
}

/** Parses streamed tool arguments; unparseable text is kept as `{ raw }`. */
export function parseToolInput(text: string): unknown {
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    return { raw: text };
  }
}

/** Builds a Usage from named numeric source fields, omitting absent ones; undefined when nothing was present. */
export function pickUsage(source: unknown, mapping: Partial<Record<keyof Usage, string>>): Usage | undefined {
  if (!isRecord(source)) return undefined;
  const input = numberAt(source, mapping.input_tokens);
  const output = numberAt(source, mapping.output_tokens);
  const thought = numberAt(source, mapping.thought_tokens);
  const cachedRead = numberAt(source, mapping.cached_read_tokens);
  const cachedWrite = numberAt(source, mapping.cached_write_tokens);
  const total = numberAt(source, mapping.total_tokens);
  if (input === undefined && output === undefined && thought === undefined && cachedRead === undefined && cachedWrite === undefined && total === undefined) {
    return undefined;
  }
  // Fixed keys, one by one: an object filled by `usage[key] = …` in a loop takes the engine's slow generic path.
  const usage: Usage = {};
  if (input !== undefined) usage.input_tokens = input;
  if (output !== undefined) usage.output_tokens = output;
  if (thought !== undefined) usage.thought_tokens = thought;
  if (cachedRead !== undefined) usage.cached_read_tokens = cachedRead;
  if (cachedWrite !== undefined) usage.cached_write_tokens = cachedWrite;
  if (total !== undefined) usage.total_tokens = total;
  return usage;
}

function numberAt(source: Record<string, unknown>, key: string | undefined): number | undefined {
  return key === undefined ? undefined : num(source[key]);
}

/** Removes keys whose value is undefined (keeps golden event arrays free of `undefined` noise). */
export function compact<T extends Record<string, unknown>>(value: T): T {
  // Copies instead of `delete`, which would push the object into slow dictionary mode.
  const out: Record<string, unknown> = {};
  for (const key in value) if (value[key] !== undefined) out[key] = value[key];
  return out as T;
}

// Each record of a stream goes through these (server/platform/jit-tiers.ts).
perEvent(str, num, obj, arr, stringifyContent, parseToolInput, pickUsage, numberAt, compact);
