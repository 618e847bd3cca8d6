// A run reading a CLI's burst lets the event loop turn between chunks once its share of a turn is used (server/runs/stdout-turns.ts).
import { expect, test } from "bun:test";
import { readWithTurns } from "../../server/runs/stdout-turns.ts";

/** A stdout whose chunks are all there already: every read settles at once, as in a burst. */
async function* burst(chunks: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < chunks; i++) yield new Uint8Array([i]);
}

function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

test("work queued for the event loop runs between the chunks of a burst, not after it", async () => {
  const order: string[] = [];
  let read = 0;
  setImmediate(() => order.push(`loop turned after ${read} chunks`));
  // Each chunk's events take 4 ms to handle: the reading's share of a turn (10 ms) is used up by the third.
  for await (const chunk of readWithTurns(burst(20), () => undefined)) {
    read++;
    expect(chunk[0]).toBe(read - 1);
    busy(4);
  }
  order.push("burst read");
  expect(order).toEqual([expect.stringMatching(/^loop turned after [1-4] chunks$/), "burst read"]);
});

test("every chunk is passed on, in order, and noted as activity before it is handled", async () => {
  const seen: string[] = [];
  for await (const chunk of readWithTurns(burst(3), () => seen.push("activity"))) seen.push(`chunk ${chunk[0]}`);
  expect(seen).toEqual(["activity", "chunk 0", "activity", "chunk 1", "activity", "chunk 2"]);
});
