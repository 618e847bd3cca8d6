/**
 * Newline-delimited framing for the protocol transports: bytes → lines via the shared `streams/line-buffer.ts`
 * (LF only, never U+2028/2029; CR stripped; oversized lines dropped and reported), and one JSON value per line.
 */
import { LineBuffer, LineTooLong, type LineItem } from "../streams/line-buffer.ts";

/** Reads a byte stream as non-empty lines. Never throws on content; a stream error ends the iteration. */
export async function* readLines(stream: AsyncIterable<Uint8Array>, log?: (msg: string) => void): AsyncGenerator<string> {
  const buffer = new LineBuffer();
  const usable = (item: LineItem): item is string => {
    if (item instanceof LineTooLong) {
      log?.(item.message);
      return false;
    }
    return item.trim() !== "";
  };
  try {
    for await (const chunk of stream) {
      for (const item of buffer.push(chunk)) if (usable(item)) yield item;
    }
  } catch (error) {
    log?.(`stdout read failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  for (const item of buffer.flush()) if (usable(item)) yield item;
}

/** Parses one line as JSON without throwing. */
export function parseJsonLine(line: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    return { ok: true, value: JSON.parse(line) };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : "invalid JSON" };
  }
}
