/**
 * "Test connection" on an installed agent's card: `POST /api/test/connection` (always 200; the daemon runs the
 * agent on a one-word prompt), one result per agent, one test per agent at a time.
 */
import { signal } from "@preact/signals";
import type { ConnectionTestResult } from "../../server/runs/connection-test.ts";
import { errorMessage, type Api } from "../api/client.ts";

export type ConnectionTestState = { kind: "running" } | { kind: "done"; result: ConnectionTestResult } | { kind: "error"; message: string };

export function createConnectionTestsModel(api: Api) {
  const byAgent = signal<Record<string, ConnectionTestState>>({}, { name: "connectionTests.byAgent" });
  const set = (agentId: string, state: ConnectionTestState) => (byAgent.value = { ...byAgent.peek(), [agentId]: state });

  async function run(agentId: string, choice: { model?: string; reasoning?: string } = {}): Promise<void> {
    if (byAgent.peek()[agentId]?.kind === "running") return;
    set(agentId, { kind: "running" });
    try {
      set(agentId, { kind: "done", result: await api.post<ConnectionTestResult>("/api/test/connection", { agentId, ...choice }) });
    } catch (failure) {
      set(agentId, { kind: "error", message: errorMessage(failure) });
    }
  }

  return { byAgent, run };
}
export type ConnectionTestsModel = ReturnType<typeof createConnectionTestsModel>;
