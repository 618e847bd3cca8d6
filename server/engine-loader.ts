/**
 * Loads the engine's module graph in steps, yielding to the event loop between them. Evaluating the whole graph is
 * synchronous work (Elysia, 28 agent defs, the services, the routes): in one block it would hold back
 * every request that arrives meanwhile (a health probe, the first page); in steps, a request waits at most for the
 * step under way.
 *
 * The steps are the graph's parts, leaves first, cheapest first (times measured in the compiled binary): the
 * node built-ins the engine uses (0.02–1 ms each; the shell imports none of them), Elysia (~1.5 ms), then the defs
 * and services (1–3 ms each), so that the final import has little left to evaluate. zod and the request schemas
 * are no step: the routes build a schema when a request first needs it (platform/load-on-first-use.ts), so an idle
 * daemon holds none of them (tests/architecture/daemon-start-imports.test.ts). Every step is work the engine needs
 * anyway; only its order is chosen, so the requests that come first, while a client waits for the daemon to be up,
 * meet the shortest steps. Between steps the loader yields with setImmediate, which lets pending I/O (an accepted
 * connection, a request) run without a timer's millisecond floor per step.
 */
import type * as EngineModule from "./engine.ts";
import { nextTurn } from "./next-turn.ts";

const STEPS: readonly (() => Promise<unknown>)[] = [
  () => import("node:os"),
  () => import("node:path"),
  () => import("node:buffer"),
  () => import("node:url"),
  () => import("node:fs"),
  () => import("node:fs/promises"),
  () => import("elysia"),
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
