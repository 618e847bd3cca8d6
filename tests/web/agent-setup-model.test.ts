// The DSH setup dialog's state machine against a scripted fetch: cancel sends nothing; confirm runs setup →
// rescan → select → connection test in that order with progress in between; failures keep their message.
import { describe, expect, test } from "bun:test";
import type { AgentInfo } from "../../server/contracts/agents.ts";
import { createApi } from "../../web/api/client.ts";
import { createAgentSetupModel } from "../../web/state/agent-setup.ts";
import { createAgentsModel } from "../../web/state/agents.ts";
import { createAppModel } from "../../web/state/app.ts";
import { createConfigModel } from "../../web/state/config.ts";
import { agentsStream, fakeFetch, until, type FakeRoute } from "../support/web-fake-fetch.ts";

const DSH = "deepseek-harness";

function dsh(state: AgentInfo["state"]): AgentInfo {
  return {
    id: DSH,
    name: "DeepSeek Harness",
    bin: "dsh",
    available: state === "available",
    state,
    version: "0.1.2",
    diagnostics:
      state === "available"
        ? []
        : [{ reason: "setup-required", severity: "warning", message: "needs od's setup step", detail: "profile open-design is not installed", fixActions: [{ kind: "setup" }] }],
    models: [],
    modelsSource: "fallback",
    streamFormat: "dsh-profile-jsonl",
    capabilities: {},
    probeMs: {},
  };
}

const SETUP_OK = { ok: true, action: "installed", agent: DSH, packageVersion: "0.1.0" };
const TEST_OK = { ok: true, latencyMs: 850, agentName: "DeepSeek Harness", detail: "OK" };

/** A deferred route: the test decides when (and with what) the daemon answers. */
function later() {
  let answer!: (response: Response) => void;
  const route: FakeRoute = () => new Promise<Response>((resolve) => (answer = resolve));
  return { route, answer: (response: Response) => answer(response) };
}

function world(routes: Record<string, FakeRoute>) {
  const { fetch, calls } = fakeFetch({
    "GET /api/app-config": () => Response.json({ config: {} }),
    "PUT /api/app-config": (init) => Response.json({ config: JSON.parse(String(init?.body)) }),
    ...routes,
  });
  const api = createApi(fetch);
  const agents = createAgentsModel(api);
  agents.agents.value = [dsh("setup-required")];
  const config = createConfigModel(api);
  const setup = createAgentSetupModel({ api, agents, config });
  return { calls, agents, config, setup };
}

describe("agent setup dialog model", () => {
  test("open shows the confirm step; Cancel closes it without a single request", () => {
    const w = world({});
    w.setup.open(DSH);
    expect(w.setup.state.value).toEqual({ kind: "confirm", agentId: DSH, agentName: "DeepSeek Harness" });
    w.setup.close();
    expect(w.setup.state.value).toEqual({ kind: "closed" });
    expect(w.calls).toEqual([]);
  });

  test("Confirm: setup (however long) → rescan → select → connection test, each stage shown", async () => {
    const install = later();
    const rescan = later();
    const connection = later();
    const w = world({
      [`POST /api/agents/${DSH}/setup`]: install.route,
      "POST /api/agents/rescan?stream=1": rescan.route,
      "POST /api/test/connection": connection.route,
    });
    w.setup.open(DSH);
    const done = w.setup.confirm();
    expect(w.setup.state.value).toMatchObject({ kind: "working", stage: "installing" });
    w.setup.close(); // refused while the install is in flight
    expect(w.setup.state.value.kind).toBe("working");

    install.answer(Response.json(SETUP_OK));
    await until(() => w.setup.state.value.kind === "working" && (w.setup.state.value as { stage: string }).stage === "rescanning");
    rescan.answer(agentsStream([dsh("available")]));
    await until(() => (w.setup.state.value as { stage?: string }).stage === "testing");
    expect(w.config.config.value.agentId).toBe(DSH);
    connection.answer(Response.json(TEST_OK));
    await done;

    expect(w.setup.state.value).toEqual({ kind: "done", agentId: DSH, agentName: "DeepSeek Harness", setup: SETUP_OK as never, test: TEST_OK });
    expect(w.calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      `POST /api/agents/${DSH}/setup`,
      "POST /api/agents/rescan?stream=1",
      "PUT /api/app-config",
      "POST /api/test/connection",
    ]);
    expect(w.calls[0]!.body).toEqual({});
    expect(w.calls[2]!.body).toEqual({ agentId: DSH });
    expect(w.calls[3]!.body).toEqual({ agentId: DSH });
    w.setup.close();
    expect(w.setup.state.value.kind).toBe("closed");
  });

  test("a setup failure shows its code and message and stops there; Try again retries", async () => {
    let attempts = 0;
    const w = world({
      [`POST /api/agents/${DSH}/setup`]: () =>
        ++attempts === 1
          ? Response.json({ error: { code: "COMPANION_INSTALL_FAILED", message: "dsh plugin add failed: disk full" } }, { status: 502 })
          : Response.json(SETUP_OK),
      "POST /api/agents/rescan?stream=1": () => agentsStream([dsh("available")]),
      "POST /api/test/connection": () => Response.json(TEST_OK),
    });
    w.setup.open(DSH);
    await w.setup.confirm();
    expect(w.setup.state.value).toMatchObject({ kind: "error", stage: "installing", code: "COMPANION_INSTALL_FAILED", message: "dsh plugin add failed: disk full" });
    expect(w.calls.map((c) => c.url)).toEqual([`/api/agents/${DSH}/setup`]);
    await w.setup.confirm();
    expect(w.setup.state.value.kind).toBe("done");
  });

  test("still not available after the rescan: an error naming why, and the agent is not selected", async () => {
    const w = world({
      [`POST /api/agents/${DSH}/setup`]: () => Response.json(SETUP_OK),
      "POST /api/agents/rescan?stream=1": () => agentsStream([dsh("setup-required")]),
    });
    w.setup.open(DSH);
    await w.setup.confirm();
    expect(w.setup.state.value).toMatchObject({ kind: "error", stage: "rescanning", code: "STILL_UNAVAILABLE" });
    expect((w.setup.state.value as { message: string }).message).toContain("profile open-design is not installed");
    expect(w.calls.some((c) => c.method === "PUT")).toBe(false);
  });

  test("a failed connection test is the result, shown with its kind (setup itself succeeded)", async () => {
    const failed = { ok: false, kind: "auth", latencyMs: 300, agentName: "DeepSeek Harness", detail: "add a key on the Models page" };
    const w = world({
      [`POST /api/agents/${DSH}/setup`]: () => Response.json(SETUP_OK),
      "POST /api/agents/rescan?stream=1": () => agentsStream([dsh("available")]),
      "POST /api/test/connection": () => Response.json(failed),
    });
    w.setup.open(DSH);
    await w.setup.confirm();
    expect(w.setup.state.value).toMatchObject({ kind: "done", test: failed });
  });

  test("picking a setup-required agent in the composer opens the dialog instead of selecting it", () => {
    const { fetch, calls } = fakeFetch({});
    const app = createAppModel({ api: createApi(fetch), stream: () => () => undefined });
    app.agents.local.agents.value = [dsh("setup-required")];
    app.composer.chooseAgent(DSH);
    expect(app.agentSetup.state.value).toMatchObject({ kind: "confirm", agentId: DSH });
    expect(app.config.config.value.agentId).toBeUndefined();
    expect(calls).toEqual([]);
    app.dispose();
  });
});
