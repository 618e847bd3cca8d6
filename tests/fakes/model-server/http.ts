/** node:http plumbing for the fake: decoded request bodies, redacted headers, an SSE writer that notices hang-ups. */
import type { IncomingMessage, ServerResponse } from "node:http";
import * as zlib from "node:zlib";

/** Read the whole body, undoing `content-encoding` (gzip, deflate, br, and zstd when the runtime has it). */
export async function readBody(request: IncomingMessage): Promise<{ text: string; decodeError?: string }> {
  const parts: Buffer[] = [];
  for await (const chunk of request) parts.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  const raw = Buffer.concat(parts);
  const encoding = String(request.headers["content-encoding"] ?? "identity").toLowerCase().trim();
  try {
    return { text: decode(raw, encoding).toString("utf8") };
  } catch (error) {
    return { text: "", decodeError: `cannot decode content-encoding ${encoding}: ${String(error)}` };
  }
}

function decode(raw: Buffer, encoding: string): Buffer {
  switch (encoding) {
    case "identity":
    case "":
      return raw;
    case "gzip":
    case "x-gzip":
      return zlib.gunzipSync(raw);
    case "deflate":
      return zlib.inflateSync(raw);
    case "br":
      return zlib.brotliDecompressSync(raw);
    case "zstd": {
      const zstd = (zlib as { zstdDecompressSync?: (input: Buffer) => Buffer }).zstdDecompressSync;
      if (!zstd) throw new Error("zstd is not supported by this runtime");
      return zstd(raw);
    }
    default:
      throw new Error("unknown encoding");
  }
}

/** JSON when it parses, else the text, else null. */
export function parseBody(text: string): unknown {
  if (text.length === 0) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

const SECRET_HEADER = /authorization|api-key|apikey|x-api-key|cookie|token|secret|password/i;

/** Lower-cased headers with anything credential-like replaced by `<redacted>`. */
export function redactHeaders(headers: IncomingMessage["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = SECRET_HEADER.test(name) ? "<redacted>" : Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  response.end(text);
}

/** Writes SSE frames; `closed` turns true as soon as the client hangs up. */
export class SseWriter {
  #closed = false;
  constructor(private readonly response: ServerResponse) {
    response.on("close", () => {
      this.#closed = true;
    });
    response.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    response.flushHeaders();
  }

  get closed(): boolean {
    return this.#closed || this.response.destroyed;
  }

  /** Send one frame (`event:` line only when `event` is given). Resolves false once the client is gone. */
  async send(event: string | undefined, data: unknown): Promise<boolean> {
    if (this.closed) return false;
    const payload = typeof data === "string" ? data : JSON.stringify(data);
    const frame = `${event ? `event: ${event}\n` : ""}data: ${payload}\n\n`;
    if (!this.response.write(frame)) {
      await new Promise<void>((resolve) => {
        this.response.once("drain", resolve);
        this.response.once("close", resolve);
      });
    }
    return !this.closed;
  }

  /** Wait `ms`, returning early (false) if the client hangs up meanwhile. */
  async pause(ms: number): Promise<boolean> {
    if (this.closed) return false;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.response.once("close", done);
    });
    return !this.closed;
  }

  /** Block until the client hangs up (for the hang scenario). */
  waitForHangUp(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => this.response.once("close", () => resolve()));
  }

  end(): void {
    if (!this.response.writableEnded) this.response.end();
  }
}
