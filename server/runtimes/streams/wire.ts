/**
 * Tiny readers for untyped wire records. Third-party JSON is read field by field with these instead of being
 * validated as a whole, so one unexpected field never drops a record.
 */
import type { Usage } from "../../contracts/events.ts";
import { isRecord } from "./tool-kind.ts";

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
  const usage: Usage = {};
  let any = false;
  for (const key in mapping) {
    const value = num(source[mapping[key as keyof Usage] as string]);
    if (value !== undefined) {
      usage[key as keyof Usage] = value;
      any = true;
    }
  }
  return any ? usage : undefined;
}

/** Removes keys whose value is undefined (keeps golden event arrays free of `undefined` noise). */
export function compact<T extends Record<string, unknown>>(value: T): T {
  // Copies instead of `delete`, which would push the object into slow dictionary mode.
  const out: Record<string, unknown> = {};
  for (const key in value) if (value[key] !== undefined) out[key] = value[key];
  return out as T;
}
