/**
 * Loads the engine's module graph in steps, yielding to the event loop between them. Evaluating the whole graph is
 * some 25 ms of synchronous work (zod and the contract schemas, Elysia, 28 agent defs, the services): in one block it
 * would hold back every request that arrives meanwhile (a health probe, the first page); in steps, a request waits
 * at most for the step under way. The steps are the graph's heaviest parts, leaves first (measured in the compiled
 * binary), so the final import has little left to evaluate.
 */
import type * as EngineModule from "./engine.ts";

const STEPS: readonly (() => Promise<unknown>)[] = [
  () => import("zod"),
  () => import("elysia"),
  () => import("./contracts/events.ts"),
  () => import("./contracts/runs.ts"),
  () => import("./contracts/agents.ts"),
  () => import("./runtimes/registry.ts"),
  () => import("./services.ts"),
  () => import("./app.ts"),
];

export async function loadEngineModule(): Promise<typeof EngineModule> {
  for (const step of STEPS) {
    await step();
    await nextTurn();
  }
  return import("./engine.ts");
}

/** A macrotask boundary: pending connections and requests are served before the next step runs. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
