// Issue #37: answering a run's approval request over HTTP (200, 404 unknown, 409 already answered, 400 bad body)
// and the 400 PERMISSION_MODE_UNSUPPORTED refusal, through the real app with a fake Claude Code as the agent.
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Credentials } from "../../server/http/credentials.ts";
import { projectRoutes } from "../../server/http/projects.ts";
import { runRoutes } from "../../server/http/runs.ts";
import { ProjectService } from "../../server/projects/project-service.ts";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import { startTestApp, TEST_TOKEN, testWorktrees } from "../support/app.ts";
import { runHarness } from "../support/fake-agents.ts";
import { DiskSpace } from "../../server/store/disk-space.ts";

async function setup() {
  const h = await runHarness({ defs: [getAgentDef("claude")!, getAgentDef("deepseek")!], shims: { claude: undefined, deepseek: undefined } });
  const target = join(h.projectDir, "hello.txt");
  h.script([
    { readLine: true },
    { canUseTool: { tool_name: "Bash", input: { command: `echo hi > ${target}` }, writeFile: { path: target, content: "hi" } } },
    { outFile: join(import.meta.dir, "..", "fixtures", "claude", "text.jsonl") },
  ]);
  const t = await startTestApp({ modules: [projectRoutes(h.store, new ProjectService(h.store, h.projectDir), new Credentials(TEST_TOKEN), testWorktrees(h.store), new DiskSpace(undefined)), runRoutes(h.service)] });
  return {
    h,
    t,
    target,
    async [Symbol.asyncDispose]() {
      await h.close();
      await t[Symbol.asyncDispose]();
    },
  };
}

async function poll<T>(read: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("POST /api/runs/:id/approvals/:approvalId", () => {
  test("GET lists the pending request; an answer is 200, a second 409, an unknown id 404, a bad decision 400", async () => {
    await using s = await setup();
    const created = await s.t.json("POST", "/api/runs", { projectId: s.h.projectId, agentId: "claude", message: "write", permissionMode: "ask" });
    expect(created.status).toBe(202);
    const { runId } = await created.json();
    const pending = await poll(async () => {
      const run = await (await s.t.call(`/api/runs/${runId}`)).json();
      return run.pendingApprovals?.length ? run.pendingApprovals[0] : undefined;
    });
    expect(pending).toMatchObject({ toolName: "Bash", kind: "command", title: `echo hi > ${s.target}`, options: ["allow_once", "allow_run", "deny"] });
    expect(existsSync(s.target)).toBe(false);

    const path = `/api/runs/${runId}/approvals/${pending.approvalId}`;
    const bad = await s.t.json("POST", path, { decision: "maybe" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe("BAD_REQUEST");
    const unknown = await s.t.json("POST", `/api/runs/${runId}/approvals/appr_nope`, { decision: "allow_once" });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.code).toBe("APPROVAL_NOT_FOUND");

    const ok = await s.t.json("POST", path, { decision: "allow_once" });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ ok: true, approvalId: pending.approvalId, decision: "allow_once" });
    const again = await s.t.json("POST", path, { decision: "deny" });
    expect(again.status).toBe(409);
    expect((await again.json()).error.code).toBe("APPROVAL_ALREADY_ANSWERED");

    await s.h.service.wait(runId);
    expect(existsSync(s.target)).toBe(true);
    const noRun = await s.t.json("POST", "/api/runs/run_nope/approvals/appr_x", { decision: "deny" });
    expect(noRun.status).toBe(404);
  });

  test("POST /api/runs with a mode the agent cannot honour → 400 PERMISSION_MODE_UNSUPPORTED naming its modes", async () => {
    await using s = await setup();
    const res = await s.t.json("POST", "/api/runs", { projectId: s.h.projectId, agentId: "deepseek", message: "hi", permissionMode: "read-only" });
    expect(res.status).toBe(400);
    const { error } = await res.json();
    expect(error.code).toBe("PERMISSION_MODE_UNSUPPORTED");
    expect(error.message).toContain("its modes: bypass");
  });

  test("an unknown permission mode is a 400 bad body", async () => {
    await using s = await setup();
    const res = await s.t.json("POST", "/api/runs", { projectId: s.h.projectId, agentId: "claude", message: "hi", permissionMode: "yolo" });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe("BAD_REQUEST");
  });
  test("a question takes answers: 400 ANSWERS_REQUIRED without them, APPROVAL_NOT_AN_OPTION for allow_run; answers to an action are 400 NOT_A_QUESTION", async () => {
    await using s = await setup();
    s.h.script([
      { readLine: true },
      { canUseTool: { tool_name: "AskUserQuestion", input: { questions: [{ question: "Which?", multiSelect: false, options: [{ label: "A" }, { label: "B" }] }] } } },
      { outFile: join(import.meta.dir, "..", "fixtures", "claude", "text.jsonl") },
    ]);
    const { runId } = await (await s.t.json("POST", "/api/runs", { projectId: s.h.projectId, agentId: "claude", message: "ask me", permissionMode: "ask" })).json();
    const pending = await poll(async () => {
      const run = await (await s.t.call(`/api/runs/${runId}`)).json();
      return run.pendingApprovals?.length ? run.pendingApprovals[0] : undefined;
    });
    expect(pending).toMatchObject({ kind: "question", title: "Which?", options: ["allow_once", "deny"], questions: [{ question: "Which?", options: [{ label: "A" }, { label: "B" }] }] });
    const path = `/api/runs/${runId}/approvals/${pending.approvalId}`;
    const codeOf = async (body: unknown) => {
      const res = await s.t.json("POST", path, body);
      return [res.status, (await res.json()).error?.code];
    };
    expect(await codeOf({ decision: "allow_once" })).toEqual([400, "ANSWERS_REQUIRED"]);
    expect(await codeOf({ decision: "allow_run", answers: { "Which?": "A" } })).toEqual([400, "APPROVAL_NOT_AN_OPTION"]);
    expect(await codeOf({ decision: "allow_once", answers: { "Which?": "B" } })).toEqual([200, undefined]);
  });

  test("answers to a request that asks no question are 400 NOT_A_QUESTION", async () => {
    await using s = await setup();
    const { runId } = await (await s.t.json("POST", "/api/runs", { projectId: s.h.projectId, agentId: "claude", message: "write", permissionMode: "ask" })).json();
    const pending = await poll(async () => {
      const run = await (await s.t.call(`/api/runs/${runId}`)).json();
      return run.pendingApprovals?.length ? run.pendingApprovals[0] : undefined;
    });
    const res = await s.t.json("POST", `/api/runs/${runId}/approvals/${pending.approvalId}`, { decision: "allow_once", answers: { q: "a" } });
    expect([res.status, (await res.json()).error.code]).toEqual([400, "NOT_A_QUESTION"]);
    expect((await s.t.json("POST", `/api/runs/${runId}/approvals/${pending.approvalId}`, { decision: "deny" })).status).toBe(200);
  });
});
