/**
 * Newline-delimited framing for the protocol transports: bytes → lines. Splits on LF only (never on U+2028/2029,
 * which are legal inside JSON strings), strips a trailing CR, and decodes UTF-8 across chunk boundaries.
 * Kept minimal on purpose: switch to `streams/line-buffer.ts` once that module exists.
 */

/** Accumulates decoded text and hands back complete lines. */
export class LineBuffer {
  private pending = "";

  /** Adds text; returns the lines it completed (without their terminators). */
  push(text: string): string[] {
    this.pending += text;
    const lines: string[] = [];
    let start = 0;
    for (let index = this.pending.indexOf("\n"); index !== -1; index = this.pending.indexOf("\n", start)) {
      lines.push(stripCr(this.pending.slice(start, index)));
      start = index + 1;
    }
    this.pending = this.pending.slice(start);
    return lines;
  }

  /** The unterminated tail, if any (call once at EOF). */
  end(): string[] {
    const rest = this.pending;
    this.pending = "";
    return rest === "" ? [] : [stripCr(rest)];
  }
}

/** Reads a byte stream as lines (empty lines dropped). Never throws on content; stream errors end the iteration. */
export async function* readLines(stream: AsyncIterable<Uint8Array>, log?: (msg: string) => void): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  const buffer = new LineBuffer();
  try {
    for await (const chunk of stream) {
      for (const line of buffer.push(decoder.decode(chunk, { stream: true }))) if (line.trim() !== "") yield line;
    }
  } catch (error) {
    log?.(`stdout read failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  for (const line of buffer.push(decoder.decode())) if (line.trim() !== "") yield line;
  for (const line of buffer.end()) if (line.trim() !== "") yield line;
}

/** One JSON value per line; `undefined` when the line is not JSON. */
export function parseJsonLine(line: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    return { ok: true, value: JSON.parse(line) };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : "invalid JSON" };
  }
}

function stripCr(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}
