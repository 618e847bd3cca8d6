/**
 * Text for stdout gathered into few large writes: flushed once `maxChars` are pending, when the event loop next turns
 * (so output that trickles in, such as a piped transcript, still appears as it is read), and on `flush`.
 */
export type BatchedOutput = { write(text: string): void; flush(): void };

export function batchedOutput(write: (text: string) => void, maxChars = 64 * 1024): BatchedOutput {
  let pending = "";
  let scheduled = false;
  const flush = () => {
    if (!pending) return;
    const text = pending;
    pending = "";
    write(text);
  };
  return {
    write(text) {
      pending += text;
      if (pending.length >= maxChars) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(() => {
          scheduled = false;
          flush();
        });
      }
    },
    flush,
  };
}
