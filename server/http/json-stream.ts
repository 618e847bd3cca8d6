/**
 * A JSON response written a piece at a time: for a body built from large stored values (a long answer's text and
 * folded events) that should not become one string, and then one buffer, before the first byte is sent. Small pieces
 * are gathered into chunks of about `CHUNK_CHARS`; a large piece is encoded and sent by itself.
 */
const encoder = new TextEncoder();
const CHUNK_CHARS = 64 * 1024;

export function jsonPiecesResponse(pieces: Iterable<string>): Response {
  const iterator = pieces[Symbol.iterator]();
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      let gathered = "";
      for (;;) {
        const next = iterator.next();
        if (next.done) {
          if (gathered) controller.enqueue(encoder.encode(gathered));
          controller.close();
          return;
        }
        gathered += next.value;
        if (gathered.length >= CHUNK_CHARS) {
          controller.enqueue(encoder.encode(gathered));
          return;
        }
      }
    },
    cancel() {
      iterator.return?.();
    },
  });
  return new Response(body, { headers: { "content-type": "application/json; charset=utf-8" } });
}
