/**
 * A Server-Sent Events response over an async iterable of batches of frames, each batch already formatted as text
 * (`formatSseFrames`, or `formatJsonFrame` per frame): each is written as one byte chunk (bytes so Bun and Deno both
 * accept them; one chunk so a busy stream costs one encode and one queue entry per batch, not per event), a heartbeat
 * comment so idle streams survive proxies and reveal dead clients, and cleanup on client abort.
 */
import { nextTurn } from "../next-turn.ts";
import { perEvent } from "../platform/jit-tiers.ts";

export type SseFrame = { event: string; data: unknown; id?: number | string };

const encoder = new TextEncoder();

/** Characters a stream writes before it lets the event loop turn (about a millisecond of formatting and writing). */
const CHARS_PER_TURN = 256 * 1024;

export function formatSseFrame(frame: SseFrame): string {
  const data = typeof frame.data === "string" ? frame.data : JSON.stringify(frame.data);
  // Fast path for every run event (JSON text never holds a raw newline): one string, no intermediate arrays.
  if (!data.includes("\n")) return `${frame.id !== undefined ? `id: ${frame.id}\n` : ""}event: ${frame.event}\ndata: ${data}\n\n`;
  const lines = [...(frame.id !== undefined ? [`id: ${frame.id}`] : []), `event: ${frame.event}`, ...data.split("\n").map((l) => `data: ${l}`)];
  return lines.join("\n") + "\n\n";
}

/**
 * One frame whose data is JSON text, which never holds a raw line break (JSON escapes them in strings): its one data
 * line needs no scan, and no frame object is made (a run's stream formats tens of thousands a second).
 */
export function formatJsonFrame(event: string, id: number, json: string): string {
  return `id: ${id}\nevent: ${event}\ndata: ${json}\n\n`;
}
perEvent(formatJsonFrame);

/** Several frames as one string (SSE frames are self-delimiting, so they simply follow each other). */
export function formatSseFrames(frames: readonly SseFrame[]): string {
  let text = "";
  for (const frame of frames) text += formatSseFrame(frame);
  return text;
}

export function sseResponse(batches: AsyncIterable<string>, options: { signal?: AbortSignal; heartbeatMs?: number; retryMs?: number } = {}): Response {
  const iterator = batches[Symbol.asyncIterator]();
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let closed = false;
  let charsSinceTurn = 0;
  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    void iterator.return?.();
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`retry: ${options.retryMs ?? 1000}\n\n`));
      heartbeat = setInterval(() => {
        if (!closed) controller.enqueue(encoder.encode(": ping\n\n"));
      }, options.heartbeatMs ?? 15_000);
      options.signal?.addEventListener("abort", () => {
        close();
        try {
          controller.close();
        } catch {
          // Already closed by the consumer.
        }
      });
    },
    async pull(controller) {
      try {
        // A reader that keeps up (a replay of a finished run) would have every pull answered without the event loop
        // turning: let the daemon's other requests in once this stream has written its share.
        if (charsSinceTurn >= CHARS_PER_TURN) {
          charsSinceTurn = 0;
          await nextTurn();
          if (closed) return;
        }
        // An empty batch ("") enqueues nothing, and a pull that enqueues nothing is not called again: read on instead.
        for (;;) {
          const next = await iterator.next();
          if (closed) return;
          if (next.done) {
            close();
            controller.close();
            return;
          }
          if (next.value.length) {
            controller.enqueue(encoder.encode(next.value));
            charsSinceTurn += next.value.length;
            return;
          }
        }
      } catch (error) {
        close();
        controller.error(error);
      }
    },
    cancel() {
      close();
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
      connection: "keep-alive",
    },
  });
}
