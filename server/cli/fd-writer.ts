/**
 * Output to stdout/stderr as a CLI wants it: written at once and in order, even right before the process exits.
 * The writes are synchronous writes to the file descriptor, because building Node's `process.stdout` stream costs
 * milliseconds (mostly loading the stream machinery) that `od serve` would pay between listening and answering.
 * A descriptor the parent left non-blocking can refuse a write (EAGAIN): the rest of that text, and everything
 * after it, then goes through the stream, which queues, so the order holds. Any other failure (the reader is gone,
 * the descriptor is closed) drops that descriptor's output rather than crashing the command.
 */
type WriteFd = (fd: number, bytes: Uint8Array) => number;
type Stream = { write(chunk: Uint8Array): unknown };

let nodeFs: typeof import("node:fs") | undefined;

/** node:fs's writeSync, fetched at the first write (once) rather than imported with the daemon's shell. */
const writeSync: WriteFd = (fd, bytes) => (nodeFs ??= process.getBuiltinModule("node:fs")).writeSync(fd, bytes);

export function fdWriter(fd: number, stream: () => Stream, write: WriteFd = writeSync): (text: string) => void {
  const encoder = new TextEncoder();
  let mode: "fd" | "stream" | "dropped" = "fd";
  return (text) => {
    if (mode === "dropped" || text === "") return;
    let bytes = encoder.encode(text);
    if (mode === "fd") {
      try {
        while (bytes.length > 0) bytes = bytes.subarray(write(fd, bytes));
        return;
      } catch (error) {
        mode = (error as { code?: unknown }).code === "EAGAIN" ? "stream" : "dropped";
        if (mode === "dropped") return;
      }
    }
    stream().write(bytes);
  };
}
