/**
 * `POST /api/test/connection` `{agentId, model?, reasoning?, location?}` → always 200 `{ok, kind?, latencyMs, model?,
 * agentName?, detail?}`: runs the agent on a tiny prompt (server/runs/connection-test.ts), on this machine or the
 * one `location` names. A client that goes away cancels the test, so nothing of it is left running.
 */
import { Elysia } from "elysia";
import type { ConnectionTestDeps } from "../runs/connection-test.ts";
import type { AgentCatalog } from "../runtimes/catalog.ts";
import { parseBody } from "./errors.ts";
import { connectionTestContract } from "./request-schemas.ts";

export type ConnectionTestRouteDeps = Omit<ConnectionTestDeps, "agents"> & {
  catalog: Pick<AgentCatalog, "list" | "capabilities" | "models" | "machineAt" | "locations">;
};

export function connectionTestRoutes(deps: ConnectionTestRouteDeps) {
  const { catalog, ...rest } = deps;
  const testDeps: ConnectionTestDeps = {
    ...rest,
    agents: { list: () => catalog.list(), capabilities: (id) => catalog.capabilities.get(id), liveModels: (id) => catalog.models(id) },
    machines: { at: (url) => catalog.machineAt(url), detections: catalog.locations },
  };
  return new Elysia({ name: "connection-test" }).post("/api/test/connection", async ({ body, request }) => {
    const parsed = parseBody(connectionTestContract().ConnectionTestRequest, body);
    // A test runs an attempt as a run does: that machinery loads with the first test or run, not with the daemon.
    const { testConnection } = await import("../runs/connection-test.ts");
    return testConnection(testDeps, parsed, request.signal);
  });
}
