/**
 * Agent catalog routes: `GET /api/agents` (`{agents}`; `?stream=1` → SSE with one `agent` event per def as its
 * probes settle, then `done`) and `POST /api/agents/rescan`. Auth and guards are applied by the app.
 */
import { Elysia, sse } from "elysia";
import type { AgentListResponse } from "../contracts/agents.ts";
import type { AgentCatalog } from "../runtimes/catalog.ts";

function listBody(catalog: AgentCatalog, agents: AgentListResponse["agents"]): AgentListResponse {
  return catalog.profileDiagnostics.length ? { agents, profileDiagnostics: [...catalog.profileDiagnostics] } : { agents };
}

async function* streamAgents(catalog: AgentCatalog, signal: AbortSignal) {
  const agents = catalog.stream();
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

/** Routes over one in-process catalog. */
export function agentRoutes(catalog: AgentCatalog) {
  return new Elysia({ name: "agents" })
    .get("/api/agents", async ({ query, request, set }) => {
      if (query.stream === "1" || query.stream === "true") {
        // Proxies must not buffer: the picker paints each card as its event arrives.
        set.headers["cache-control"] = "no-cache";
        set.headers["x-accel-buffering"] = "no";
        return streamAgents(catalog, request.signal);
      }
      return listBody(catalog, await catalog.list());
    })
    .post("/api/agents/rescan", async () => listBody(catalog, await catalog.rescan()));
}
