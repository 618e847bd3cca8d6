// Issue #19: the first screen takes a prompt at once. With no project, sending opens the default project (created
// under the data dir through POST /api/projects {name}, or reused when it exists) and then starts the run in it.
import { describe, expect, test } from "bun:test";
import type { AgentInfo } from "../../server/contracts/agents.ts";
import type { Project } from "../../server/contracts/projects.ts";
import { createApi } from "../../web/api/client.ts";
import type { RunEventStream } from "../../web/api/run-events.ts";
import { createAppModel } from "../../web/state/app.ts";
import { manualScheduler } from "../../web/state/scheduler.ts";
import { DEFAULT_PROJECT_NAME } from "../../web/state/workspace.ts";
import { fakeFetch, until, type FakeRoute } from "../support/web-fake-fetch.ts";

const claude: AgentInfo = {
  id: "claude",
  name: "Claude Code",
  bin: "claude",
  available: true,
  state: "available",
  version: "2.0.0",
  diagnostics: [],
  models: [{ id: "default", label: "Default" }],
  modelsSource: "fallback",
  streamFormat: "claude-stream-json",
  capabilities: {},
  probeMs: {},
};

function project(id: string, name: string): Project {
  return { id, name, path: `/data/projects/${id}`, createdAt: 1, updatedAt: 1 } as Project;
}

function world(existing: Project[], routes: Record<string, FakeRoute> = {}) {
  const { fetch, calls } = fakeFetch({
    "GET /api/health": () => Response.json({ ok: true, version: "0.1.0" }),
    "GET /api/app-config": () => Response.json({ config: {} }),
    "GET /api/projects": () => Response.json({ projects: existing }),
    "GET /api/agents": () => Response.json({ agents: [claude] }),
    "POST /api/projects": (init) => Response.json({ project: project("p-new", JSON.parse(String(init?.body)).name) }),
    "GET /api/projects/p-new/conversations": () => Response.json({ conversations: [] }),
    "GET /api/projects/p-old/conversations": () => Response.json({ conversations: [] }),
    "GET /api/projects/p-new/files": () => Response.json({ files: [] }),
    "GET /api/projects/p-old/files": () => Response.json({ files: [] }),
    "POST /api/runs": () => Response.json({ runId: "r1", conversationId: "c1" }, { status: 202 }),
    "GET /api/conversations/c1/messages": () => Response.json({ messages: [] }),
    ...routes,
  });
  const streamed: string[] = [];
  const stream: RunEventStream = (runId) => {
    streamed.push(runId);
    return () => {};
  };
  const app = createAppModel({ api: createApi(fetch), stream, schedule: manualScheduler().schedule });
  return { app, calls, streamed };
}

const writes = (calls: Array<{ method: string; url: string; body?: unknown }>) => calls.filter((c) => c.method !== "GET" && !c.url.startsWith("/api/agents"));

describe("first run: a prompt on the first screen", () => {
  test("with no project, Enter creates the default project and starts the run in it", async () => {
    const { app, calls, streamed } = world([]);
    await app.start({ projectId: null, conversationId: null });
    await until(() => app.agents.load.value === "done");
    // The config the session check was answered with is the page's: not asked for twice.
    expect(calls.filter((c) => c.url === "/api/app-config")).toHaveLength(1);
    expect(app.workspace.project.value).toBeNull();
    app.composer.text.value = "Build a landing page";
    expect(app.composer.canSend.value).toBe(true);
    await app.composer.submit();

    expect(writes(calls)).toEqual([
      { method: "POST", url: "/api/projects", body: { name: DEFAULT_PROJECT_NAME } },
      { method: "POST", url: "/api/runs", body: { message: "Build a landing page", agentId: "claude", projectId: "p-new" } },
    ]);
    expect(app.workspace.projectId.value).toBe("p-new");
    expect(app.workspace.projects.value.map((p) => p.name)).toEqual([DEFAULT_PROJECT_NAME]);
    expect(app.workspace.conversationId.value).toBe("c1");
    expect(streamed).toEqual(["r1"]);
    expect(app.composer.text.value).toBe("");
    app.dispose();
  });

  test("a default project that already exists is reopened, not created again", async () => {
    const { app, calls } = world([project("p-old", DEFAULT_PROJECT_NAME)]);
    await app.start({ projectId: null, conversationId: null });
    await until(() => app.agents.load.value === "done");
    await app.workspace.open(null); // e.g. the open project was removed
    app.composer.text.value = "Again";
    await app.composer.submit();
    expect(writes(calls)).toEqual([{ method: "POST", url: "/api/runs", body: { message: "Again", agentId: "claude", projectId: "p-old" } }]);
    expect(app.workspace.projectId.value).toBe("p-old");
    app.dispose();
  });

  test("a project the daemon refuses to create is said in the composer, and no run starts", async () => {
    const { app, calls } = world([], {
      "POST /api/projects": () => Response.json({ error: { code: "DISK_FULL", message: "no space left" } }, { status: 500 }),
    });
    await app.start({ projectId: null, conversationId: null });
    await until(() => app.agents.load.value === "done");
    app.composer.text.value = "Build it";
    await app.composer.submit();
    expect(calls.some((c) => c.url === "/api/runs")).toBe(false);
    expect(app.composer.error.value).toContain("no space left");
    expect(app.composer.text.value).toBe("Build it"); // kept for another try
    app.dispose();
  });
});
