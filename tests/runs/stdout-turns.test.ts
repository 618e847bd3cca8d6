// A run reading a CLI's burst lets the event loop turn between chunks (server/runs/stdout-turns.ts).
import { expect, test } from "bun:test";
import { readWithTurns } from "../../server/runs/stdout-turns.ts";

/** A stdout whose chunks are all there already: every read settles at once, as in a burst. */
async function* burst(chunks: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < chunks; i++) yield new Uint8Array([i]);
}

test("work queued for the event loop runs between the chunks of a burst, not after it", async () => {
  const order: string[] = [];
  let read = 0;
  setImmediate(() => order.push(`loop turned after ${read} chunks`));
  for await (const chunk of readWithTurns(burst(5), () => undefined)) {
    read++;
    expect(chunk[0]).toBe(read - 1);
  }
  order.push("burst read");
  expect(order).toEqual(["loop turned after 1 chunks", "burst read"]);
});

test("every chunk is passed on, in order, and noted as activity before it is handled", async () => {
  const seen: string[] = [];
  for await (const chunk of readWithTurns(burst(3), () => seen.push("activity"))) seen.push(`chunk ${chunk[0]}`);
  expect(seen).toEqual(["activity", "chunk 0", "activity", "chunk 1", "activity", "chunk 2"]);
});
