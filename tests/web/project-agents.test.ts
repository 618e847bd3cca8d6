// Issue #36, item 1: the page offers the agents of the open project's machine. A remote project's picker, models and
// Send come from detection there (GET /api/agents?location=MACHINE), a local project's from this machine's pass.
import { describe, expect, test } from "bun:test";
import type { AgentInfo } from "../../server/contracts/agents.ts";
import type { Project } from "../../server/contracts/projects.ts";
import { createApi } from "../../web/api/client.ts";
import { createAppModel } from "../../web/state/app.ts";
import { machineLabel, machineOf } from "../../web/state/agents.ts";
import { manualScheduler } from "../../web/state/scheduler.ts";
import { fakeFetch, until } from "../support/web-fake-fetch.ts";

function agent(id: string, name: string, available: boolean, models = [{ id: "default", label: "Default" }]): AgentInfo {
  return { id, name, bin: id, version: "1.0.0", available, state: available ? "available" : "unavailable", diagnostics: [], models, modelsSource: "fallback", streamFormat: "claude-stream-json", capabilities: {}, probeMs: {} } as AgentInfo;
}

const here = { id: "p-here", name: "here", path: "/home/me/app", createdAt: 1, updatedAt: 1 } as Project;
const there = { id: "p-there", name: "there", path: "ssh://me@box:2222/srv/app", createdAt: 1, updatedAt: 1 } as Project;
const MACHINE = "ssh://me@box:2222";

function world() {
  const { fetch, calls } = fakeFetch({
    "GET /api/health": () => Response.json({ ok: true, version: "0.1.0" }),
    "GET /api/app-config": () => Response.json({ config: {} }),
    "GET /api/projects": () => Response.json({ projects: [here, there] }),
    // This machine has Claude Code only; the host has pi only, with models of its own.
    [`GET /api/agents?location=${encodeURIComponent(MACHINE)}`]: () =>
      Response.json({ agents: [agent("claude", "Claude Code", false), agent("pi", "Pi", true, [{ id: "default", label: "Default" }, { id: "far-model", label: "far-model" }])] }),
    "GET /api/agents": () => Response.json({ agents: [agent("claude", "Claude Code", true), agent("pi", "Pi", false)] }),
    "GET /api/projects/p-here/conversations": () => Response.json({ conversations: [] }),
    "GET /api/projects/p-there/conversations": () => Response.json({ conversations: [] }),
    "GET /api/projects/p-here/files": () => Response.json({ files: [] }),
    "GET /api/projects/p-there/files": () => Response.json({ files: [] }),
    "POST /api/runs": () => Response.json({ runId: "r1", conversationId: "c1" }, { status: 202 }),
    "GET /api/conversations/c1/messages": () => Response.json({ messages: [] }),
  });
  const app = createAppModel({ api: createApi(fetch), stream: () => () => undefined, schedule: manualScheduler().schedule });
  return { app, calls };
}

describe("the agents the page offers are the open project's machine's", () => {
  test("machine URLs and their names", () => {
    expect(machineOf("ssh://me@box:2222/srv/app")).toBe("ssh://me@box:2222");
    expect(machineOf("docker://dev/work")).toBe("docker://dev");
    expect(machineOf("/home/me/app")).toBeNull();
    expect(machineLabel("ssh://me@box:2222")).toBe("me@box");
    expect(machineLabel("docker://dev")).toBe("container dev");
  });

  test("a remote project offers what its host has, and sends there; back in a local project, this machine's", async () => {
    const { app, calls } = world();
    await app.start({ projectId: "p-here", conversationId: null });
    await until(() => app.agents.load.value === "done");
    expect(app.agents.pickable.value.map((a) => a.id)).toEqual(["claude"]);
    expect(app.agents.where).toBe("this machine");

    await app.workspace.open("p-there");
    await until(() => app.agents.load.value === "done" && app.agents.where === "me@box");
    expect(app.agents.pickable.value.map((a) => a.id)).toEqual(["pi"]);
    expect(app.composer.agent.value?.id).toBe("pi");
    expect(app.composer.models.value.map((m) => m.id)).toContain("far-model");
    app.composer.text.value = "Fix the build";
    expect(app.composer.canSend.value).toBe(true);
    await app.composer.submit();
    expect(calls.find((c) => c.url === "/api/runs")?.body).toMatchObject({ projectId: "p-there", agentId: "pi" });

    await app.workspace.open("p-here");
    expect(app.agents.pickable.value.map((a) => a.id)).toEqual(["claude"]);
    // The host's inventory is kept: opening its project again asks nothing more of it.
    await app.workspace.open("p-there");
    expect(calls.filter((c) => c.url.startsWith("/api/agents?location=")).length).toBe(1);
    app.dispose();
  });

  test("a host that cannot be reached says so, and Send stays off", async () => {
    const { fetch } = fakeFetch({
      "GET /api/health": () => Response.json({ ok: true, version: "0.1.0" }),
      "GET /api/app-config": () => Response.json({ config: {} }),
      "GET /api/projects": () => Response.json({ projects: [there] }),
      "GET /api/agents": () => Response.json({ agents: [agent("claude", "Claude Code", true)] }),
      [`GET /api/agents?location=${encodeURIComponent(MACHINE)}`]: () => Response.json({ error: { code: "REMOTE_UNREACHABLE", message: "cannot reach me@box: Connection refused" } }, { status: 502 }),
      "GET /api/projects/p-there/conversations": () => Response.json({ conversations: [] }),
      "GET /api/projects/p-there/files": () => Response.json({ files: [] }),
    });
    const app = createAppModel({ api: createApi(fetch), stream: () => () => undefined, schedule: manualScheduler().schedule });
    await app.start({ projectId: "p-there", conversationId: null });
    await until(() => app.agents.load.value === "error");
    expect(app.agents.error.value).toContain("Connection refused");
    expect(app.agents.pickable.value).toEqual([]);
    app.composer.text.value = "Fix it";
    expect(app.composer.canSend.value).toBe(false);
    app.dispose();
  });
});

test("a host still probing: what it has shows at once, the rest follows; a settled agent never goes back to probing; no 'none found' meanwhile", async () => {
  const probingPi = { ...agent("pi", "Pi", false), state: "probing" } as AgentInfo;
  const answers = [
    [agent("claude", "Claude Code", true), probingPi],
    [{ ...agent("claude", "Claude Code", false), state: "probing" } as AgentInfo, agent("pi", "Pi", true)],
  ];
  let asked = 0;
  const { fetch } = fakeFetch({
    "GET /api/health": () => Response.json({ ok: true, version: "0.1.0" }),
    "GET /api/app-config": () => Response.json({ config: {} }),
    "GET /api/projects": () => Response.json({ projects: [there] }),
    "GET /api/agents": () => Response.json({ agents: [] }),
    [`GET /api/agents?location=${encodeURIComponent(MACHINE)}`]: () => Response.json({ agents: answers[Math.min(asked++, answers.length - 1)] }),
    "GET /api/projects/p-there/conversations": () => Response.json({ conversations: [] }),
    "GET /api/projects/p-there/files": () => Response.json({ files: [] }),
  });
  const app = createAppModel({ api: createApi(fetch), stream: () => () => undefined, schedule: manualScheduler().schedule });
  await app.start({ projectId: "p-there", conversationId: null });
  await until(() => app.agents.load.value === "done");
  await until(() => !app.agents.probing.value);
  expect(asked).toBe(2);
  expect(app.agents.pickable.value.map((a) => `${a.id}:${a.state}`)).toEqual(["claude:available", "pi:available"]);
  app.dispose();
});
