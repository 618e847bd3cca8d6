// Run creations that arrive together go on one per turn of the event loop (server/next-turn.ts's TurnQueue), so a
// health check, a stream write or an event commit waiting meanwhile runs between two of them, not after all of them.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { TurnQueue } from "../../server/next-turn.ts";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";
import { endOf, runHarness } from "../support/fake-agents.ts";

/** Counts turns of the event loop (one immediate per turn) until stopped. */
function turnCounter(): { readonly turns: number; stop(): void } {
  let turns = 0;
  let running = true;
  const tick = () => {
    turns++;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    get turns() {
      return turns;
    },
    stop: () => (running = false),
  };
}

test("callers that ask together go on one per turn, in the order they asked", async () => {
  const queue = new TurnQueue();
  const counter = turnCounter();
  const went: { caller: number; turn: number }[] = [];
  await Promise.all(Array.from({ length: 5 }, (_, caller) => queue.next().then(() => went.push({ caller, turn: counter.turns }))));
  counter.stop();
  expect(went.map((w) => w.caller)).toEqual([0, 1, 2, 3, 4]);
  // Another immediate ran between every two callers.
  for (let i = 1; i < went.length; i++) expect(went[i]!.turn).toBeGreaterThan(went[i - 1]!.turn);
});

test("a caller that asks later, after the queue has emptied, goes on in the next turn", async () => {
  const queue = new TurnQueue();
  await queue.next();
  const counter = turnCounter();
  await queue.next();
  counter.stop();
  expect(counter.turns).toBeLessThanOrEqual(1);
});

test("runs created at once are each created in a turn of their own, and all of them run to their end", async () => {
  await using h = await runHarness({ defs: [getAgentDef("claude")! as RuntimeAgentDef], shims: { claude: undefined }, steps: [{ readLine: true }, { outFile: join(import.meta.dir, "..", "fixtures", "claude", "text.jsonl") }] });
  const counter = turnCounter();
  const turnsCreated: number[] = [];
  const created = await Promise.all(
    Array.from({ length: 6 }, () => h.service.create({ projectId: h.projectId, agentId: "claude", message: "hi" }).then((run) => (turnsCreated.push(counter.turns), run))),
  );
  counter.stop();
  // Without the queue the six creations share one turn: their work never waits for I/O.
  expect(new Set(turnsCreated).size).toBe(6);
  for (const { runId } of created) {
    const events = [];
    for await (const event of h.service.events(runId)) events.push(event);
    expect(endOf(events).status).toBe("succeeded");
  }
});
