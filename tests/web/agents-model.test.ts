import { describe, expect, test } from "bun:test";
import type { AgentInfo } from "../../server/contracts/agents.ts";
import { createApi } from "../../web/api/client.ts";
import { readSseFrames } from "../../web/api/sse.ts";
import { createAgentsModel } from "../../web/state/agents.ts";
import { fakeFetch, sseBody, until } from "../support/web-fake-fetch.ts";

function agent(id: string, state: AgentInfo["state"], over: Partial<AgentInfo> = {}): AgentInfo {
  return {
    id,
    name: id.toUpperCase(),
    bin: id,
    available: state === "available",
    state,
    version: state === "unavailable" ? null : "1.0.0",
    diagnostics: [],
    models: [{ id: "default", label: "Default" }],
    modelsSource: "fallback",
    streamFormat: "plain",
    capabilities: {},
    probeMs: { version: 12 },
    ...over,
  };
}

const missingCodex = agent("codex", "unavailable", {
  diagnostics: [
    {
      reason: "not-installed",
      severity: "error",
      message: "codex is not installed",
      fixActions: [{ kind: "copyCommand", command: "npm i -g @openai/codex" }, { kind: "openInstall" }],
    },
  ],
});

describe("agents model", () => {
  test("cards stream in as probes settle and are grouped installed / setup required / not installed", async () => {
    const body = sseBody();
    const { fetch } = fakeFetch({ "POST /api/agents/rescan?stream=1": () => body.response() });
    const model = createAgentsModel(createApi(fetch));
    const loading = model.refresh();
    body.send("agent", agent("claude", "available"));
    await until(() => model.agents.value.length === 1);
    expect(model.load.value).toBe("loading");
    expect(model.groups.value.installed.map((a) => a.id)).toEqual(["claude"]);
    body.send("agent", missingCodex);
    body.send("agent", agent("dsh", "setup-required"));
    body.send("agent", { ...agent("claude", "available"), version: "2.0.0" }); // a re-probe replaces, never duplicates
    body.send("done", {});
    await loading;
    expect(model.load.value).toBe("done");
    const { installed, setupRequired, notInstalled } = model.groups.value;
    expect([installed.map((a) => a.id), setupRequired.map((a) => a.id), notInstalled.map((a) => a.id)]).toEqual([["claude"], ["dsh"], ["codex"]]);
    expect(model.byId("claude")?.version).toBe("2.0.0");
    expect(model.available.value.map((a) => a.id)).toEqual(["claude"]);
    expect(model.suggestedCommands.value).toEqual([{ agentId: "codex", agentName: "CODEX", command: "npm i -g @openai/codex" }]);
  });

  // Issue #19: cards arrive as probes settle (a missing CLI settles first), which put a niche missing agent first
  // and the one installed agent second.
  test("groups read by name whatever order probes settle in; the picker offers installed, then setup-required", async () => {
    const body = sseBody();
    const { fetch } = fakeFetch({ "POST /api/agents/rescan?stream=1": () => body.response() });
    const model = createAgentsModel(createApi(fetch));
    const loading = model.refresh();
    for (const a of [
      agent("amr", "unavailable", { name: "AMR" }),
      agent("qwen", "available", { name: "Qwen Code" }),
      agent("deepseek-harness", "setup-required", { name: "DeepSeek Harness" }),
      agent("aider", "unavailable", { name: "aider" }),
      agent("claude", "available", { name: "Claude Code" }),
    ])
      body.send("agent", a);
    body.send("done", {});
    await loading;
    const { installed, setupRequired, notInstalled } = model.groups.value;
    expect(installed.map((a) => a.id)).toEqual(["claude", "qwen"]);
    expect(setupRequired.map((a) => a.id)).toEqual(["deepseek-harness"]);
    expect(notInstalled.map((a) => a.id)).toEqual(["aider", "amr"]);
    expect(model.pickable.value.map((a) => a.id)).toEqual(["claude", "qwen", "deepseek-harness"]);
  });

  test("the install suggestions put the CLIs the empty state names first, one command per agent", () => {
    const missing = (id: string, ...commands: string[]) =>
      agent(id, "unavailable", {
        name: id,
        diagnostics: [{ reason: "not-installed", severity: "error", message: `${id} is not installed`, fixActions: commands.map((command) => ({ kind: "copyCommand" as const, command })) }],
      });
    const model = createAgentsModel(createApi(fakeFetch({}).fetch));
    model.agents.value = [missing("aider", "pip install aider"), missing("codex", "npm i -g codex", "codex login"), missing("amp", "npm i -g amp"), missing("claude", "npm i -g claude")];
    expect(model.installSuggestions.value.map((c) => [c.agentId, c.command])).toEqual([
      ["claude", "npm i -g claude"],
      ["codex", "npm i -g codex"],
      ["aider", "pip install aider"],
      ["amp", "npm i -g amp"],
    ]);
  });

  test("a stream that ends without done falls back to the plain list", async () => {
    const body = sseBody();
    const { fetch, calls } = fakeFetch({
      "POST /api/agents/rescan?stream=1": () => body.response(),
      "GET /api/agents": () => Response.json({ agents: [agent("claude", "available"), missingCodex] }),
    });
    const model = createAgentsModel(createApi(fetch));
    const loading = model.refresh();
    body.send("agent", agent("claude", "available"));
    body.raw("event: agent\ndata: {not json\n\n");
    body.close();
    await loading;
    expect(calls.map((c) => c.url)).toEqual(["/api/agents/rescan?stream=1", "/api/agents"]);
    expect(model.agents.value.map((a) => a.id)).toEqual(["claude", "codex"]);
    expect(model.load.value).toBe("done");
  });

  test("rescan probes afresh, streamed: the cards stay, each is replaced as it settles, and the progress counts them", async () => {
    const first = sseBody();
    const again = sseBody();
    const bodies = [first, again];
    const { fetch, calls } = fakeFetch({ "POST /api/agents/rescan?stream=1": () => bodies.shift()!.response() });
    const model = createAgentsModel(createApi(fetch));
    const loading = model.refresh();
    first.send("agent", agent("pi", "unavailable"));
    first.send("agent", agent("claude", "available"));
    first.send("done", {});
    await loading;
    const rescanning = model.rescan();
    expect(model.rescanning.value).toBe(true);
    await until(() => model.rescanProgress.value !== null);
    expect(model.rescanProgress.value).toEqual({ settled: 0, total: 2 });
    expect(model.agents.value.map((a) => a.id).sort()).toEqual(["claude", "pi"]);
    again.send("agent", agent("pi", "available"));
    await until(() => model.rescanProgress.value?.settled === 1);
    expect(model.byId("pi")?.state).toBe("available");
    again.send("agent", agent("claude", "available"));
    again.send("done", {});
    await rescanning;
    expect(model.rescanning.value).toBe(false);
    expect(model.rescanProgress.value).toBeNull();
    expect(calls.map((c) => c.body)).toEqual([{ maxAgeMs: 30_000 }, { maxAgeMs: 0 }]);
  });
});

describe("SSE frame reader", () => {
  test("splits records on blank lines across chunk boundaries, joins data lines, ignores comments", async () => {
    const text = ": hello\n\nid: 3\nevent: agent\ndata: {\"a\":\ndata: 1}\r\n\r\nevent: done\ndata: {}";
    const bytes = new TextEncoder().encode(text);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 5) controller.enqueue(bytes.slice(i, i + 5));
        controller.close();
      },
    });
    const frames = [];
    for await (const frame of readSseFrames(body)) frames.push(frame);
    expect(frames).toEqual([
      { event: "agent", data: '{"a":\n1}', id: "3" },
      { event: "done", data: "{}" },
    ]);
  });
});
