/**
 * In-memory agent pipes for transport unit tests: the test plays the agent, writing bytes to the transport's stdout
 * and reading the frames the transport wrote to stdin.
 */
import type { ChildStdin } from "../../server/platform/process.ts";
import { EventQueue } from "../../server/runtimes/protocols/event-queue.ts";

export type MemoryPipes = {
  io: { stdin: ChildStdin; stdout: AsyncIterable<Uint8Array> };
  /** Write raw bytes or text to the transport (as the agent's stdout). */
  emit(chunk: string | Uint8Array): void;
  /** Write one JSON frame followed by LF. */
  emitFrame(frame: unknown): void;
  /** End the agent's stdout (EOF). */
  closeOutput(): void;
  /** Frames the transport wrote, parsed. */
  written: unknown[];
  stdinClosed(): boolean;
  /** Resolves with the first written frame matching `predicate` (polls, bounded). */
  waitForWritten(predicate: (frame: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
};

export function memoryPipes(): MemoryPipes {
  const output = new EventQueue<Uint8Array>();
  const written: unknown[] = [];
  let pending = "";
  let closed = false;
  const encoder = new TextEncoder();
  const stdin: ChildStdin = {
    get closed() {
      return closed;
    },
    write(chunk) {
      if (closed) return Promise.reject(new Error("stdin is closed"));
      pending += typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk);
      let index = pending.indexOf("\n");
      while (index !== -1) {
        written.push(JSON.parse(pending.slice(0, index)));
        pending = pending.slice(index + 1);
        index = pending.indexOf("\n");
      }
      return Promise.resolve();
    },
    end() {
      closed = true;
    },
  };
  return {
    io: { stdin, stdout: output },
    emit: (chunk) => output.push(typeof chunk === "string" ? encoder.encode(chunk) : chunk),
    emitFrame: (frame) => output.push(encoder.encode(`${JSON.stringify(frame)}\n`)),
    closeOutput: () => output.close(),
    written,
    stdinClosed: () => closed,
    waitForWritten: (predicate, timeoutMs = 3000) =>
      poll(() => written.find((f) => predicate(f as Record<string, unknown>)) as Record<string, unknown> | undefined, timeoutMs),
  };
}

/** Polls `probe` until it returns a value, or rejects after `timeoutMs`. */
export async function poll<T>(probe: () => T | undefined | null | false, timeoutMs = 3000, label = "condition"): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Collects every event of an async iterable. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}
