/**
 * "Test connection" on an installed agent's card: `POST /api/test/connection` (always 200; the daemon runs the
 * agent on a one-word prompt) on the open project's machine (`location`; this machine for a local project), one
 * result per agent and machine, one test per agent at a time.
 */
import { computed, signal, type ReadonlySignal } from "@preact/signals";
import type { ConnectionTestResult } from "../../server/runs/connection-test.ts";
import { errorMessage, type Api } from "../api/client.ts";

export type ConnectionTestState = { kind: "running" } | { kind: "done"; result: ConnectionTestResult } | { kind: "error"; message: string };

const THIS_MACHINE = signal<string | null>(null);

/** `machine`: the URL of the machine the agents shown are on (null: this one). */
export function createConnectionTestsModel(api: Api, machine: ReadonlySignal<string | null> = THIS_MACHINE) {
  const byMachine = signal<Record<string, Record<string, ConnectionTestState>>>({}, { name: "connectionTests.byMachine" });
  const keyOf = (location: string | null) => location ?? "";
  /** The results of the machine shown now, by agent id. */
  const byAgent = computed(() => byMachine.value[keyOf(machine.value)] ?? {}, { name: "connectionTests.byAgent" });
  const set = (location: string | null, agentId: string, state: ConnectionTestState) => {
    const all = byMachine.peek();
    byMachine.value = { ...all, [keyOf(location)]: { ...all[keyOf(location)], [agentId]: state } };
  };

  async function run(agentId: string, choice: { model?: string; reasoning?: string } = {}): Promise<void> {
    const location = machine.peek();
    if (byMachine.peek()[keyOf(location)]?.[agentId]?.kind === "running") return;
    set(location, agentId, { kind: "running" });
    try {
      const result = await api.post<ConnectionTestResult>("/api/test/connection", { agentId, ...choice, ...(location ? { location } : {}) });
      set(location, agentId, { kind: "done", result });
    } catch (failure) {
      set(location, agentId, { kind: "error", message: errorMessage(failure) });
    }
  }

  return { byAgent, run };
}
export type ConnectionTestsModel = ReturnType<typeof createConnectionTestsModel>;
