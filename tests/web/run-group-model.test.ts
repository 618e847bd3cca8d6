// Issue #38: "Ask several agents" in the composer. Picking two or more agents sends one POST /api/run-groups (each
// agent's own model, the rest of the prompt shared), the group's runs stream side by side, the group's summary is
// read again as each run ends, and Apply / Discard go to the run they belong to.
import { expect, test } from "bun:test";
import type { AgentInfo } from "../../server/contracts/agents.ts";
import type { Project } from "../../server/contracts/projects.ts";
import type { RunEvent } from "../../server/contracts/runs.ts";
import type { RunGroupResponse } from "../../server/contracts/worktrees.ts";
import { createApi } from "../../web/api/client.ts";
import { createAppModel } from "../../web/state/app.ts";
import { manualScheduler } from "../../web/state/scheduler.ts";
import { fakeFetch, until } from "../support/web-fake-fetch.ts";

const base = { bin: "x", version: "1.0.0", available: true, state: "available", diagnostics: [], models: [{ id: "default", label: "Default" }], modelsSource: "fallback", streamFormat: "claude-stream-json", capabilities: {}, probeMs: {}, permissionModes: ["bypass"] };
const agents = [
  { ...base, id: "claude", name: "Claude Code" },
  { ...base, id: "codex", name: "Codex" },
  { ...base, id: "opencode", name: "OpenCode" },
] as AgentInfo[];
const project = { id: "p1", name: "p", path: "/home/me/p", createdAt: 1, updatedAt: 1 } as Project;
const worktree = (state: "active" | "applied" | "discarded") => ({ branch: "od/x", folder: "/wt", base: "b", head: "h", carriedPaths: 0, state, createdAt: 1, appliedAt: null, appliedMode: null, discardedAt: null });

test("two agents picked: one group request, both runs streamed, the summary refreshed as they end, apply and discard per run", async () => {
  const states: Record<string, "active" | "applied" | "discarded"> = { r1: "active", r2: "active" };
  const summary = (): RunGroupResponse => ({
    groupId: "g1",
    projectId: "p1",
    message: "Fix the bug",
    createdAt: 1,
    base: "b",
    runs: (["r1", "r2"] as const).map((runId, i) => ({
      runId,
      agentId: i === 0 ? "claude" : "codex",
      conversationId: `c${i + 1}`,
      status: "succeeded",
      model: null,
      durationMs: 1200,
      inputTokens: 10,
      outputTokens: 5,
      costUsd: null,
      reason: null,
      changes: { files: 1, additions: 1, deletions: 0, created: 1, modified: 0, deleted: 0 },
      worktree: worktree(states[runId]!),
    })),
  });
  const { fetch, calls } = fakeFetch({
    "GET /api/health": () => Response.json({ ok: true, version: "0.1.0" }),
    "GET /api/app-config": () => Response.json({ config: { agentModels: { codex: { model: "gpt-x" } } } }),
    "GET /api/projects": () => Response.json({ projects: [project] }),
    "GET /api/agents": () => Response.json({ agents }),
    "GET /api/projects/p1/conversations": () => Response.json({ conversations: [] }),
    "GET /api/projects/p1/files": () => Response.json({ files: [] }),
    "POST /api/run-groups": () => Response.json({ groupId: "g1", runs: [{ runId: "r1", agentId: "claude", conversationId: "c1" }, { runId: "r2", agentId: "codex", conversationId: "c2" }] }, { status: 202 }),
    "GET /api/run-groups/g1": () => Response.json(summary()),
    "POST /api/runs/r1/apply": () => {
      states.r1 = "applied";
      return Response.json({ applied: true });
    },
    "POST /api/runs/r2/discard": () => {
      states.r2 = "discarded";
      return Response.json({ discarded: true });
    },
  });
  const streams = new Map<string, (event: RunEvent) => void>();
  const scheduler = manualScheduler();
  const app = createAppModel({ api: createApi(fetch), stream: (runId, receive) => (streams.set(runId, receive), () => streams.delete(runId)), schedule: scheduler.schedule });
  await app.start({ projectId: "p1", conversationId: null });
  await until(() => app.agents.load.value === "done");
  const { composer, group } = app;

  composer.toggleSeveral();
  expect(composer.severalIds.value).toEqual(["claude"]);
  composer.text.value = "Fix the bug";
  expect(composer.canSend.value).toBe(false); // one agent is not several
  composer.toggleSeveralAgent("codex");
  expect(composer.canSend.value).toBe(true);
  await composer.submit();
  expect(calls.filter((c) => c.url === "/api/run-groups")).toEqual([{ method: "POST", url: "/api/run-groups", body: { projectId: "p1", message: "Fix the bug", agentIds: ["claude", "codex"] } }]);
  expect(calls.some((c) => c.url === "/api/runs")).toBe(false);
  expect(composer.text.value).toBe("");
  expect(group.runs.value.map((r) => r.runId)).toEqual(["r1", "r2"]);
  expect([...streams.keys()]).toEqual(["r1", "r2"]);
  expect(group.allEnded.value).toBe(false);

  const end = (id: number): RunEvent => ({ id, ts: 2, type: "end", status: "succeeded", code: 0, signal: null, reason: "done", files: [], durationMs: 1200 });
  streams.get("r1")!(end(1));
  streams.get("r2")!(end(1));
  scheduler.runFrame();
  expect(group.allEnded.value).toBe(true);
  await until(() => calls.filter((c) => c.url === "/api/run-groups/g1").length >= 3);

  await group.apply("r1");
  expect(group.applied.value).toBe("r1");
  await group.discardOthers();
  expect(calls.filter((c) => c.method === "POST" && c.url.startsWith("/api/runs/")).map((c) => c.url)).toEqual(["/api/runs/r1/apply", "/api/runs/r2/discard"]);
  expect(group.group.value!.runs.map((r) => r.worktree!.state)).toEqual(["applied", "discarded"]);

  // Opening a conversation leaves the group's view.
  app.workspace.openConversation("c1");
  await until(() => group.group.value === null);
  app.dispose();
});
