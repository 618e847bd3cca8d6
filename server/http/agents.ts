/**
 * Agent catalog routes: `GET /api/agents` (`{agents}`; `?stream=1` → SSE with one `agent` event per def as its
 * probes settle, then `done`) and `POST /api/agents/rescan` (`?stream=1` streams it the same way; a body
 * `{maxAgeMs}` replays a pass that finished that recently instead of probing again). A GET never starts a probe
 * pass (a pass is work, and no GET may start work): it follows the running pass or replays the last one; only the
 * very first pass of a catalog nobody warmed starts on demand. Auth and guards are applied by the app.
 */
import { Elysia, sse } from "elysia";
import type { AgentListResponse } from "../contracts/agents.ts";
import type { AgentCatalog } from "../runtimes/catalog.ts";
import { HttpError, parseBody } from "./errors.ts";
import type { Machine } from "../machines/machine.ts";
import { LocationError, parseMachineLocation } from "../machines/machine-url.ts";
import { agentsContract } from "./request-schemas.ts";

function listBody(catalog: AgentCatalog, agents: AgentListResponse["agents"]): AgentListResponse {
  return catalog.profileDiagnostics.length ? { agents, profileDiagnostics: [...catalog.profileDiagnostics] } : { agents };
}

function wantsStream(query: Record<string, string | undefined>): boolean {
  return query.stream === "1" || query.stream === "true";
}

async function* streamAgents(catalog: AgentCatalog, maxAgeMs: number, signal: AbortSignal) {
  const agents = catalog.stream(maxAgeMs);
  try {
    for await (const agent of agents) {
      if (signal.aborted) return;
      yield sse({ event: "agent", data: agent });
    }
    yield sse({ event: "done", data: {} });
  } catch (error) {
    yield sse({ event: "error", data: { error: error instanceof Error ? error.message : String(error) } });
  } finally {
    // Stop following the pass; the pass itself runs to completion and feeds the catalog.
    await agents.return(undefined);
  }
}

/** `?location=` as another machine or a container (its folder optional), or a 400. */
function machineQuery(catalog: AgentCatalog, text: string): Machine {
  try {
    // A local path names no other machine.
    parseMachineLocation(text);
    return catalog.machineAt(text);
  } catch (error) {
    if (!(error instanceof LocationError)) throw error;
    throw new HttpError(400, "INVALID_LOCATION", error.message);
  }
}

/** Routes over one in-process catalog. */
export function agentRoutes(catalog: AgentCatalog) {
  const streamed = (set: { headers: Record<string, string | number> }, maxAgeMs: number, signal: AbortSignal) => {
    // Proxies must not buffer: the picker paints each card as its event arrives.
    set.headers["cache-control"] = "no-cache";
    set.headers["x-accel-buffering"] = "no";
    return streamAgents(catalog, maxAgeMs, signal);
  };
  return new Elysia({ name: "agents" })
    .get("/api/agents", async ({ query, request, set }) => {
      // Detection where the agent would run: another machine or a container, probed afresh (issue #21).
      if (query.location !== undefined) return { agents: await catalog.detectOn(machineQuery(catalog, query.location)) };
      if (wantsStream(query)) return streamed(set, Number.POSITIVE_INFINITY, request.signal);
      return listBody(catalog, await catalog.list());
    })
    .post("/api/agents/rescan", async ({ query, body, request, set }) => {
      const { maxAgeMs = 0 } = parseBody(agentsContract().RescanRequest, body ?? {});
      if (wantsStream(query)) return streamed(set, maxAgeMs, request.signal);
      return listBody(catalog, await catalog.rescan());
    });
}
