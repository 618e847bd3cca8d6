// Issue #37: the composer's permission control. It offers what the agent can honour, remembers the choice per
// project (app config `projectPermissionModes`), and sends it; a remembered mode the agent lacks is sent as bypass,
// so the daemon never refuses a run for a mode the person could not have picked.
import { expect, test } from "bun:test";
import type { AgentInfo } from "../../server/contracts/agents.ts";
import type { Project } from "../../server/contracts/projects.ts";
import { createApi } from "../../web/api/client.ts";
import { createAppModel } from "../../web/state/app.ts";
import { manualScheduler } from "../../web/state/scheduler.ts";
import { fakeFetch, until } from "../support/web-fake-fetch.ts";

const base = { bin: "x", version: "1.0.0", available: true, state: "available", diagnostics: [], models: [{ id: "default", label: "Default" }], modelsSource: "fallback", streamFormat: "claude-stream-json", capabilities: {}, probeMs: {} };
const claude = { ...base, id: "claude", name: "Claude Code", permissionModes: ["bypass", "ask", "read-only"] } as AgentInfo;
const plain = { ...base, id: "plain", name: "Plain", permissionModes: ["bypass"] } as AgentInfo;
const project = { id: "p1", name: "p", path: "/home/me/p", createdAt: 1, updatedAt: 1 } as Project;

test("chosen, remembered per project, sent; a mode the agent lacks goes out as bypass", async () => {
  let config: Record<string, unknown> = {};
  const { fetch, calls } = fakeFetch({
    "GET /api/health": () => Response.json({ ok: true, version: "0.1.0" }),
    "GET /api/app-config": () => Response.json({ config }),
    "PUT /api/app-config": (init) => {
      const patch = JSON.parse(String(init?.body)) as Record<string, Record<string, unknown>>;
      config = { ...config, ...patch, projectPermissionModes: { ...(config.projectPermissionModes as object), ...patch.projectPermissionModes } };
      return Response.json({ config });
    },
    "GET /api/projects": () => Response.json({ projects: [project] }),
    "GET /api/agents": () => Response.json({ agents: [claude, plain] }),
    "GET /api/projects/p1/conversations": () => Response.json({ conversations: [] }),
    "GET /api/projects/p1/files": () => Response.json({ files: [] }),
    "POST /api/runs": () => Response.json({ runId: "r1", conversationId: "c1" }, { status: 202 }),
    "GET /api/conversations/c1/messages": () => Response.json({ messages: [] }),
  });
  const app = createAppModel({ api: createApi(fetch), stream: () => () => undefined, schedule: manualScheduler().schedule });
  await app.start({ projectId: "p1", conversationId: null });
  await until(() => app.agents.load.value === "done");
  const { composer } = app;
  expect(composer.agent.value?.id).toBe("claude");
  expect(composer.permissionMode.value).toBe("bypass");
  expect(composer.permissionModes.value).toEqual(["bypass", "ask", "read-only"]);

  await composer.choosePermissionMode("ask");
  await until(() => (config.projectPermissionModes as Record<string, string> | undefined)?.p1 === "ask");
  expect(composer.permissionMode.value).toBe("ask");
  composer.text.value = "Do it";
  await composer.submit();
  expect(calls.filter((c) => c.url === "/api/runs").at(-1)?.body).toMatchObject({ agentId: "claude", permissionMode: "ask" });

  composer.chooseAgent("plain");
  await until(() => composer.agent.value?.id === "plain");
  expect(composer.permissionModes.value).toEqual(["bypass"]);
  expect(composer.permissionMode.value).toBe("bypass");
  composer.text.value = "Again";
  await composer.submit();
  // The first run still works (its stream never ends here): the second waits as a follow-up, as it would go out.
  expect(calls.filter((c) => c.url === "/api/runs")).toHaveLength(1);
  expect(app.conversation.followUps.here.value.at(-1)?.request).toMatchObject({ agentId: "plain", permissionMode: "bypass" });
  app.dispose();
});
