/**
 * The setup dialog of an agent whose CLI is present but needs od's one-time setup step (DeepSeek Harness: od's
 * `open-design` profile package installed into the user's DSH home). Nothing is requested until the user confirms;
 * then: install (no client-side time limit — it can take minutes) → rescan → select it → connection test.
 *
 *   closed ─open→ confirm ─cancel→ closed
 *                 confirm ─confirm→ installing → rescanning → selecting → testing → done
 *                 any working stage ─failure→ error (confirm again retries; close closes)
 */
import { signal } from "@preact/signals";
import type { DshSetupResponse } from "../../server/dsh/setup-contract.ts";
import type { ConnectionTestResult } from "../../server/runs/connection-test.ts";
import { ApiError, errorMessage, type Api } from "../api/client.ts";
import type { AgentsView } from "./agents.ts";
import type { ConfigModel } from "./config.ts";

/** The working stages, in order. */
export type SetupStage = "installing" | "rescanning" | "selecting" | "testing";

export type AgentSetupState =
  | { kind: "closed" }
  | { kind: "confirm"; agentId: string; agentName: string }
  | { kind: "working"; agentId: string; agentName: string; stage: SetupStage }
  | { kind: "done"; agentId: string; agentName: string; setup: DshSetupResponse; test: ConnectionTestResult }
  | { kind: "error"; agentId: string; agentName: string; stage: SetupStage; code: string; message: string };

export interface AgentSetupDeps {
  api: Api;
  agents: Pick<AgentsView, "rescan" | "byId" | "error">;
  config: Pick<ConfigModel, "update">;
}

/** What the dialog says will be installed, and where (the DSH home is the user's, not od's). */
export const SETUP_EXPLANATION: Record<string, { installs: string; where: string }> = {
  "deepseek-harness": {
    installs: "od's embedded DeepSeek Harness profile package (@open-design/dsh-runtime), as the Harness profile named open-design",
    where: "your DSH home (DSH_HOME, or ~/.dsh) — through your own dsh, with `dsh plugin add`",
  },
};

export function createAgentSetupModel({ api, agents, config }: AgentSetupDeps) {
  const state = signal<AgentSetupState>({ kind: "closed" }, { name: "agentSetup.state" });

  /** Shows the confirm dialog for `agentId` (no request yet). */
  function open(agentId: string): void {
    if (state.peek().kind === "working") return;
    state.value = { kind: "confirm", agentId, agentName: agents.byId(agentId)?.name ?? agentId };
  }

  /** Closes the dialog; refused while work is in flight (the install cannot be undone halfway). */
  function close(): void {
    if (state.peek().kind !== "working") state.value = { kind: "closed" };
  }

  async function confirm(): Promise<void> {
    const current = state.peek();
    if (current.kind !== "confirm" && current.kind !== "error") return;
    const { agentId, agentName } = current;
    let stage: SetupStage = "installing";
    const enter = (next: SetupStage) => {
      stage = next;
      state.value = { kind: "working", agentId, agentName, stage };
    };
    try {
      enter("installing");
      const setup = await api.post<DshSetupResponse>(`/api/agents/${encodeURIComponent(agentId)}/setup`, {});
      enter("rescanning");
      await agents.rescan();
      const info = agents.byId(agentId);
      if (info?.state !== "available") {
        const why = agents.error.peek() ?? info?.diagnostics[0]?.detail ?? info?.diagnostics[0]?.message ?? "it was not detected";
        throw new ApiError(0, "STILL_UNAVAILABLE", `Setup finished, but ${agentName} is still not available: ${why}`);
      }
      enter("selecting");
      await config.update({ agentId });
      enter("testing");
      const test = await api.post<ConnectionTestResult>("/api/test/connection", { agentId });
      state.value = { kind: "done", agentId, agentName, setup, test };
    } catch (failure) {
      state.value = { kind: "error", agentId, agentName, stage, code: failure instanceof ApiError ? failure.code : "ERROR", message: errorMessage(failure) };
    }
  }

  return { state, open, close, confirm };
}
export type AgentSetupModel = ReturnType<typeof createAgentSetupModel>;
