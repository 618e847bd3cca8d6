import { expect, test } from "bun:test";
import { formatJsonFrame, formatSseFrames, sseResponse, type SseFrame } from "../../server/http/sse.ts";

async function* batches(...items: SseFrame[][]): AsyncGenerator<string> {
  for (const frames of items) yield formatSseFrames(frames);
}

test("each batch of frames is written as one chunk, and an empty batch writes nothing", async () => {
  const response = sseResponse(batches([{ event: "a", id: 1, data: "1" }, { event: "b", id: 2, data: { x: 1 } }], [], [{ event: "c", data: "3" }]));
  const reader = response.body!.getReader();
  const chunks: string[] = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    chunks.push(new TextDecoder().decode(value));
  }
  expect(chunks).toEqual(["retry: 1000\n\n", 'id: 1\nevent: a\ndata: 1\n\nid: 2\nevent: b\ndata: {"x":1}\n\n', "event: c\ndata: 3\n\n"]);
});

test("a stream whose reader keeps up lets the event loop turn while it writes (other requests are not held up)", async () => {
  async function* manyPages() {
    for (let i = 0; i < 64; i++) yield formatSseFrames([{ event: "agent", data: "z".repeat(64 * 1024) }]);
  }
  let turns = 0;
  const ticker = setInterval(() => turns++, 0);
  try {
    const text = await new Response(sseResponse(manyPages()).body).text();
    expect(text.length).toBeGreaterThan(64 * 64 * 1024);
  } finally {
    clearInterval(ticker);
  }
  expect(turns).toBeGreaterThan(0);
});

test("a frame of JSON text is the frame formatSseFrame makes of it", () => {
  for (const json of ['{"type":"agent","id":7}', JSON.stringify({ text: "two\nlines\r\n", nested: { a: [1, "\u2028"] } })]) {
    expect(formatJsonFrame("agent", 7, json)).toBe(formatSseFrames([{ event: "agent", id: 7, data: json }]));
  }
});
