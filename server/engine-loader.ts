/**
 * Loads the engine's module graph in steps, yielding to the event loop between them. Evaluating the whole graph is
 * some 25 ms of synchronous work (zod and the contract schemas, Elysia, 28 agent defs, the services): in one block it
 * would hold back every request that arrives meanwhile (a health probe, the first page); in steps, a request waits
 * at most for the step under way.
 *
 * The steps are the graph's parts, leaves first, cheapest first (times measured in the compiled binary): the
 * node built-ins the engine uses (0.02–1 ms each; the shell imports none of them), Elysia (~1.5 ms), then the
 * contracts, defs and services (1–3 ms each), so that the final import has little left to evaluate. zod is not a
 * step of its own (the first contract's step evaluates it): a dynamic import of `zod` keeps its whole namespace
 * (every locale, the JSON Schema converters) in the binary and in memory (measured: 1 MB more embedded code, 1 MB
 * more idle RSS), where the static imports keep only what od uses. Every step is
 * work the engine needs anyway; only its order is chosen, so the requests that come first, while a client waits
 * for the daemon to be up, meet the shortest steps. Between steps the loader yields with setImmediate, which lets
 * pending I/O (an accepted connection, a request) run without a timer's millisecond floor per step.
 */
import type * as EngineModule from "./engine.ts";
import { nextTurn } from "./next-turn.ts";

const STEPS: readonly (() => Promise<unknown>)[] = [
  () => import("node:os"),
  () => import("node:path"),
  () => import("node:buffer"),
  () => import("node:url"),
  () => import("node:fs"),
  () => import("node:stream/promises"),
  () => import("node:fs/promises"),
  () => import("elysia"),
  () => import("./contracts/app-config.ts"),
  () => import("./contracts/mcp.ts"),
  () => import("./contracts/skills.ts"),
  () => import("./contracts/projects.ts"),
  () => import("./contracts/events.ts"),
  () => import("./contracts/agents.ts"),
  () => import("./contracts/runs.ts"),
  () => import("./runtimes/registry.ts"),
  () => import("./runs/run-service.ts"),
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
