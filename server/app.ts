/**
 * Assembles the HTTP app from the route modules in server/http/. No logic lives here: the guard runs first on
 * every request, typed errors become `{error:{code,message}}`, and each module mounts its own routes.
 */
import { Elysia, type AnyElysia } from "elysia";
import { appConfigRoutes } from "./http/app-config.ts";
import { DISK_FULL_MESSAGE, isDiskFull } from "./store/disk-space.ts";
import { OdError } from "./errors.ts";
import { failureResponse } from "./http/errors.ts";
import { PayloadTooLargeError, payloadTooLarge } from "./http/body-limit.ts";
import { createGuard, type GuardOptions } from "./http/guard.ts";
import { healthRoutes } from "./http/health.ts";
import { sessionRoutes } from "./http/session.ts";
import { uiRoutes, type UiAssets } from "./http/ui.ts";
import type { Store } from "./store/store.ts";

export type AppDeps = {
  version: string;
  store: Store;
  guard: GuardOptions;
  /** Omit to serve the API only (Deno smoke test, in-process route tests). */
  ui?: UiAssets;
  /** Further route modules (agents, runs, skills, …), mounted after the core ones. */
  modules?: AnyElysia[];
};

export async function createApp(deps: AppDeps) {
  const guard = createGuard(deps.guard);
  // No ahead-of-time handler compilation: it cost ~20 ms on the first request after start-up (the daemon's first
  // answer waits for it) and saves only ~20 µs per request afterwards, which a local daemon never notices.
  const app = deferRouteTable(new Elysia({ aot: false }))
    .onRequest(({ request }) => guard(request))
    .onError(({ code, error }) => {
      if (error instanceof OdError) return failureResponse(error);
      // A body that streamed past its route's limit (server/http/body-limit.ts), however the read surfaced it.
      const tooLarge = payloadTooLargeIn(error);
      if (tooLarge) return payloadTooLarge(tooLarge.limit);
      // Dynamic mode (aot: false) lets the body's JSON.parse SyntaxError through instead of a PARSE error.
      if (code === "PARSE" || error instanceof SyntaxError) return jsonError(400, "INVALID_JSON", "request body is not valid JSON");
      if (code === "VALIDATION") return jsonError(400, "BAD_REQUEST", String((error as Error).message));
      if (code === "NOT_FOUND") return jsonError(404, "NOT_FOUND", "no such route");
      // Any write of any route (a project, a setting, an upload) that finds the data dir's disk full.
      if (isDiskFull(error)) return jsonError(507, "DISK_FULL", DISK_FULL_MESSAGE);
      console.error("od: unhandled error", error);
      return jsonError(500, "INTERNAL", "internal error");
    })
    .use(healthRoutes(deps.version))
    .use(sessionRoutes(deps.guard.credentials))
    .use(appConfigRoutes(deps.store.appConfig));
  for (const module of deps.modules ?? []) app.use(module);
  if (deps.ui) app.use(await uiRoutes(deps.ui));
  // Built now, once every route is in: a clash of two routes' parameter names throws here, at start-up.
  app.router.dynamic.build();
  return app;
}

/**
 * Dynamic mode's route table (memoirist) checks each route added against every route added before it, a linear search
 * per add with a callback each, and each route is added in its loose (trailing-slash) form too: for od's 113 adds that
 * was ~4 ms of the daemon's start (the start-up JIT leaves such loops to the interpreter). Lazy, it queues them and
 * builds its tree once, without that check; a route added twice still keeps its first handler (the tree keeps the first
 * store of a path), and a route mounted later is queued and built at the next lookup.
 */
function deferRouteTable<A extends AnyElysia>(app: A): A {
  app.router.dynamic.config.lazy = true;
  return app;
}

export type App = Awaited<ReturnType<typeof createApp>>;

function jsonError(status: number, code: string, message: string): Response {
  return Response.json({ error: { code, message } }, { status });
}

function payloadTooLargeIn(error: unknown): PayloadTooLargeError | undefined {
  for (let cause = error, depth = 0; cause && depth < 4; cause = (cause as { cause?: unknown }).cause, depth++) {
    if (cause instanceof PayloadTooLargeError) return cause;
  }
  return undefined;
}
