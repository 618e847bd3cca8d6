/**
 * A run's whole answer text on disk, for runs whose answer is larger than the folded message keeps (fold.ts spills
 * into it once cut). The file is created only then, private to this user (0600 in a 0700 folder), and written in
 * blocks; `readOutputRange` serves byte ranges of it so the rest of a huge answer is paged, never loaded.
 */
import { closeSync, existsSync, mkdirSync, openSync, readSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { TextSpill } from "./fold.ts";
import { endsInHighSurrogate } from "../utf16.ts";

/** Pending text is written once it reaches this many chars. */
const WRITE_CHARS = 256 * 1024;

/** The file of a run's answer inside `dir` (run ids are generated, `[a-z0-9_]` only). */
export function runOutputPath(dir: string, runId: string): string {
  return join(dir, `${runId.replace(/[^\w-]/g, "_")}.txt`);
}

export class RunOutputFile implements TextSpill {
  #fd: number | undefined;
  #pending: string[] = [];
  #pendingChars = 0;
  #closed = false;

  constructor(
    private readonly dir: string,
    private readonly runId: string,
    /** Told when the file cannot be written (a full disk): writing stops there, the run goes on without it. */
    private readonly onError?: (error: unknown) => void,
  ) {}

  write(text: string): void {
    // Nothing after close: reopening would truncate the finished file.
    if (!text || this.#closed) return;
    this.#pending.push(text);
    this.#pendingChars += text.length;
    if (this.#pendingChars >= WRITE_CHARS) this.#flush();
  }

  /** Writes what is pending and closes the file (a no-op when nothing was ever written). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#flush(true);
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }

  #flush(final = false): void {
    if (!this.#pending.length) return;
    // A high surrogate at the end waits for its pair, so no character is split between two encodings.
    let text = this.#pending.join("");
    const held = !final && endsInHighSurrogate(text) ? text.slice(-1) : "";
    if (held) text = text.slice(0, -1);
    this.#pending = held ? [held] : [];
    this.#pendingChars = held.length;
    if (!text) return;
    try {
      if (this.#fd === undefined) {
        mkdirSync(this.dir, { recursive: true, mode: 0o700 });
        this.#fd = openSync(runOutputPath(this.dir, this.runId), "w", 0o600);
      }
      writeSync(this.#fd, text);
    } catch (error) {
      if (!this.onError) throw error;
      this.abandon();
      this.onError(error);
    }
  }

  /** Stops writing, with what is pending left unwritten (the disk is full: what room is left goes to the run's end). */
  abandon(): void {
    this.#pending = [];
    this.#pendingChars = 0;
    this.#closed = true;
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }
}

/** A byte range of a run's answer file, or undefined when the run has none. */
export type OutputRange = { totalBytes: number; start: number; end: number; body: ReadableStream<Uint8Array> };

/** Streams bytes [start, start + limit) of the run's answer file in 64 KiB reads (the whole file without a limit). */
export function readOutputRange(dir: string, runId: string, start: number, limit?: number): OutputRange | undefined {
  const path = runOutputPath(dir, runId);
  if (!existsSync(path)) return undefined;
  const totalBytes = statSync(path).size;
  const from = Math.min(start, totalBytes);
  const end = limit === undefined ? totalBytes : Math.min(totalBytes, from + limit);
  let fd: number | undefined;
  let position = from;
  const close = () => {
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
  };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      fd ??= openSync(path, "r");
      if (position >= end) {
        close();
        controller.close();
        return;
      }
      const chunk = new Uint8Array(Math.min(64 * 1024, end - position));
      const read = readSync(fd, chunk, 0, chunk.length, position);
      if (read === 0) {
        close();
        controller.close();
        return;
      }
      position += read;
      controller.enqueue(read === chunk.length ? chunk : chunk.subarray(0, read));
    },
    cancel: close,
  });
  return { totalBytes, start: from, end, body };
}
