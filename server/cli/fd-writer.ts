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

/**
 * Text is encoded into one reused buffer, a slice at a time, rather than into a new array per write: a long `od parse`
 * or `od run --json` writes its whole output through here, and a fresh array per batch is 50 MB of garbage (and of
 * page faults) per 50 MB written. Only text the stream has to keep is copied. The buffer starts small and grows with
 * the text written, up to its largest size: the daemon writes one line to stdout and kept a 256 KiB buffer for it
 * (a quarter of a MB of its idle memory).
 */
const ENCODE_BUFFER_BYTES = 256 * 1024;
const FIRST_BUFFER_BYTES = 4 * 1024;

/** The buffer for encoding `chars` UTF-16 units (at most 3 bytes each): a power of two, within the sizes above. */
function bufferBytesFor(chars: number): number {
  let bytes = FIRST_BUFFER_BYTES;
  while (bytes < chars * 3 && bytes < ENCODE_BUFFER_BYTES) bytes *= 2;
  return bytes;
}

export function fdWriter(fd: number, stream: () => Stream, write: WriteFd = writeSync): (text: string) => void {
  const encoder = new TextEncoder();
  let buffer: Uint8Array | undefined;
  let mode: "fd" | "stream" | "dropped" = "fd";
  return (text) => {
    if (mode === "dropped" || text === "") return;
    let rest = text;
    while (mode === "fd" && rest !== "") {
      const wanted = bufferBytesFor(rest.length);
      if (!buffer || buffer.length < wanted) buffer = new Uint8Array(wanted);
      const { read, written } = encoder.encodeInto(rest, buffer);
      rest = read === rest.length ? "" : rest.slice(read);
      let bytes = buffer.subarray(0, written);
      try {
        while (bytes.length > 0) bytes = bytes.subarray(write(fd, bytes));
      } catch (error) {
        mode = (error as { code?: unknown }).code === "EAGAIN" ? "stream" : "dropped";
        if (mode === "dropped") return;
        stream().write(bytes.slice());
      }
    }
    if (mode === "stream" && rest !== "") stream().write(encoder.encode(rest));
  };
}
