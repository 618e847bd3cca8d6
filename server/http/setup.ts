/**
 * `POST /api/agents/deepseek-harness/setup`: the confirm dialog's action. Installs od's embedded `open-design`
 * profile through the user's dsh (the same code as `od setup deepseek-harness`), then rescans the agent list so the
 * next `GET /api/agents` shows it available. Concurrent requests share one setup. Guarded like every /api route.
 */
import { Elysia } from "elysia";
import type { DshRuntimeSource } from "../dsh/embedded-runtime.ts";
import { devDshRuntimeSource } from "../dsh/dev-source.ts";
import { DSH_AGENT_ID } from "../dsh/agent-id.ts";
import type { DshSetupResponse } from "../dsh/setup-contract.ts";
import type { AgentCatalog } from "../runtimes/catalog.ts";
import type { EnvMap } from "../runtimes/types.ts";
import { HttpError } from "./errors.ts";

export type SetupRoutesDeps = {
  catalog: Pick<AgentCatalog, "rescan">;
  env: EnvMap;
  /** Where the profile tarball comes from (the binary's embedded copy; packed from source by default). */
  source?: () => DshRuntimeSource;
  platform?: NodeJS.Platform;
};

export function setupRoutes(deps: SetupRoutesDeps) {
  const source = deps.source ?? devDshRuntimeSource;
  let running: Promise<DshSetupResponse> | undefined;

  const setupAndRescan = async (): Promise<DshSetupResponse> => {
    // The setup code (dsh's profile probe and its frames' schemas, the tarball's check) loads with the first setup.
    const [{ setupDeepseekHarness }, { DSH_SETUP_ERROR_STATUS }] = await Promise.all([import("../dsh/setup-agent.ts"), import("../dsh/setup-contract.ts")]);
    const result = await setupDeepseekHarness({ env: deps.env, source: source(), ...(deps.platform ? { platform: deps.platform } : {}) });
    if (!result.ok) throw new HttpError(DSH_SETUP_ERROR_STATUS[result.code], result.code, result.message);
    // A pass already running began before the install; if it still says "not ready", one more pass is fresh.
    const infos = await deps.catalog.rescan();
    if (infos.find((info) => info.id === DSH_AGENT_ID)?.state !== "available") await deps.catalog.rescan();
    return { ok: true, action: result.action, agent: result.agent, packageVersion: result.packageVersion };
  };

  return new Elysia({ name: "agent-setup" }).post(`/api/agents/${DSH_AGENT_ID}/setup`, async () => {
    running ??= setupAndRescan().finally(() => {
      running = undefined;
    });
    return await running;
  });
}
