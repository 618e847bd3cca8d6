/** An artifact body spooled to a private file while it streams (see ArtifactSpool in artifacts.ts). */
import { nodeBuffer } from "../../platform/node-buffer.ts";
import { endsInHighSurrogate } from "../../utf16.ts";
import { closeSync, ftruncateSync, openSync, writeSync } from "node:fs";

/** Pending text is written once it reaches this many chars. */
const WRITE_CHARS = 64 * 1024;

/**
 * One artifact body written as it streams, trimmed as artifacts.ts's `bodyOf` trims a whole body: leading blank
 * lines dropped, trailing whitespace dropped (the file is cut back to the last non-space byte at close), one final
 * newline.
 */
export class BodyFile {
  readonly #fd: number;
  #pending: string[] = [];
  #pendingChars = 0;
  /** Bytes handed to the file so far, and the end of the last non-whitespace one. */
  #bytes = 0;
  #keptBytes = 0;
  /** Leading whitespace seen since its last newline, until the first other character. */
  #lead: string | undefined = "";
  /** A high surrogate that ended the last piece, held until its pair arrives so bytes are counted right. */
  #highSurrogate = "";

  constructor(readonly path: string) {
    this.#fd = openSync(path, "wx", 0o600);
  }

  write(piece: string, final = false): void {
    let text = this.#highSurrogate + piece;
    this.#highSurrogate = "";
    if (!final && endsInHighSurrogate(text)) {
      this.#highSurrogate = text.slice(-1);
      text = text.slice(0, -1);
    }
    if (this.#lead !== undefined) {
      const first = text.search(/\S/);
      if (first < 0) {
        this.#lead = afterLastNewline(this.#lead + text);
        return;
      }
      text = afterLastNewline(this.#lead + text.slice(0, first)) + text.slice(first);
      this.#lead = undefined;
    }
    if (!text) return;
    let end = text.length;
    while (end > 0 && /\s/.test(text[end - 1]!)) end--;
    if (end > 0) this.#keptBytes = this.#bytes + nodeBuffer().Buffer.byteLength(end === text.length ? text : text.slice(0, end), "utf8");
    this.#bytes += nodeBuffer().Buffer.byteLength(text, "utf8");
    this.#pending.push(text);
    this.#pendingChars += text.length;
    if (this.#pendingChars >= WRITE_CHARS) this.#flush();
  }

  /** Finishes the body (trimmed, one final newline) and closes the file; returns its path. */
  close(): string {
    if (this.#highSurrogate) this.write("", true);
    this.#flush();
    ftruncateSync(this.#fd, this.#keptBytes);
    writeSync(this.#fd, "\n", this.#keptBytes);
    closeSync(this.#fd);
    return this.path;
  }

  #flush(): void {
    if (!this.#pending.length) return;
    writeSync(this.#fd, this.#pending.join(""));
    this.#pending = [];
    this.#pendingChars = 0;
  }
}

function afterLastNewline(whitespace: string): string {
  return whitespace.slice(whitespace.lastIndexOf("\n") + 1);
}
