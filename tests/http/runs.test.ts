// /api/projects and /api/runs through the real app (guard included), with a fake CLI as the agent.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RunHistoryResponse, type RunEvent } from "../../server/contracts/runs.ts";
import { Credentials } from "../../server/http/credentials.ts";
import { projectRoutes } from "../../server/http/projects.ts";
import { runRoutes } from "../../server/http/runs.ts";
import { ProjectService } from "../../server/projects/project-service.ts";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import { startTestApp, TEST_TOKEN, testWorktrees } from "../support/app.ts";
import { tempDir } from "../support/temp.ts";
import { runHarness } from "../support/fake-agents.ts";
import { readSse } from "../support/sse.ts";
import { DiskSpace } from "../../server/store/disk-space.ts";

const fixture = (cli: string, scenario: string) => join(import.meta.dir, "..", "fixtures", cli, `${scenario}.jsonl`);

async function setup(steps: Record<string, unknown>[]) {
  const h = await runHarness({ defs: [getAgentDef("claude")!], shims: { claude: undefined }, steps });
  const t = await startTestApp({ modules: [projectRoutes(h.store, new ProjectService(h.store, h.projectDir), new Credentials(TEST_TOKEN), testWorktrees(h.store), new DiskSpace(undefined)), runRoutes(h.service)] });
  // The harness and the app must share one store: use the harness's for runs and the app's data dir for nothing else.
  return {
    h,
    t,
    async [Symbol.asyncDispose]() {
      await h.close();
      await t[Symbol.asyncDispose]();
    },
  };
}

describe("/api/runs", () => {
  test("POST → 202 {runId, conversationId}; SSE streams every event with ids and closes after end", async () => {
    await using s = await setup([{ readLine: true }, { outFile: fixture("claude", "text") }]);
    const res = await s.t.json("POST", "/api/runs", { projectId: s.h.projectId, agentId: "claude", message: "hello" });
    expect(res.status).toBe(202);
    const { runId, conversationId } = await res.json();
    expect(runId).toMatch(/^run_/);
    expect(conversationId).toMatch(/^cnv_/);
    const stream = await s.t.call(`/api/runs/${runId}/events`);
    expect(stream.headers.get("content-type")).toContain("text/event-stream");
    const frames = await readSse(stream);
    expect(frames.map((f) => Number(f.id))).toEqual(frames.map((_, i) => i + 1));
    expect(frames[0]!.event).toBe("start");
    expect(frames.at(-1)).toMatchObject({ event: "end", data: { type: "end", status: "succeeded" } });
    const summary = await (await s.t.call(`/api/runs/${runId}`)).json();
    expect(summary).toMatchObject({ id: runId, status: "succeeded", agentId: "claude", lastEventId: frames.length });
    const listed = await (await s.t.call(`/api/runs?conversationId=${conversationId}`)).json();
    expect(listed.runs.map((r: { id: string }) => r.id)).toEqual([runId]);
    const messages = await (await s.t.call(`/api/conversations/${conversationId}/messages`)).json();
    expect(messages.messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant"]);
  });

  test("GET messages?events=0: each message without its folded events, the rest as without it; a bad value is a 400", async () => {
    await using s = await setup([{ readLine: true }, { outFile: fixture("claude", "text") }]);
    const { conversationId } = await (await s.t.json("POST", "/api/runs", { projectId: s.h.projectId, agentId: "claude", message: "hello" })).json();
    let whole: { messages: { id: string; role: string; text: string; events?: unknown[] }[] } = { messages: [] };
    for (let tries = 0; tries < 200 && !whole.messages.some((m) => m.events?.length); tries++) {
      whole = await (await s.t.call(`/api/conversations/${conversationId}/messages`)).json();
      if (!whole.messages.some((m) => m.events?.length)) await Bun.sleep(25);
    }
    expect(whole.messages.find((m) => m.role === "assistant")?.events?.length).toBeGreaterThan(0);
    for (const value of ["0", "false"]) {
      const lean = await (await s.t.call(`/api/conversations/${conversationId}/messages?events=${value}`)).json();
      expect(lean.messages).toEqual(whole.messages.map(({ events: _, ...rest }) => rest));
    }
    // The answer's text was kept at the first lean listing (migration 17): later ones read it from there.
    const answer = whole.messages.find((m) => m.role === "assistant")!;
    expect(answer.text.length).toBeGreaterThan(0);
    expect(s.h.store.db.prepare("SELECT message_id, text FROM message_texts").all()).toEqual([{ message_id: answer.id, text: answer.text }]);
    expect(await (await s.t.call(`/api/conversations/${conversationId}/messages?events=1`)).json()).toEqual(whole);
    const bad = await s.t.call(`/api/conversations/${conversationId}/messages?events=nope`);
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBeString();
  });

  test("Last-Event-ID and ?after= replay exactly what was missed", async () => {
    await using s = await setup([{ readLine: true }, { outFile: fixture("claude", "long") }]);
    const { runId } = await (await s.t.json("POST", "/api/runs", { projectId: s.h.projectId, agentId: "claude", message: "long" })).json();
    const first = await readSse(await s.t.call(`/api/runs/${runId}/events`), { limit: 5 });
    const rest = await readSse(await s.t.call(`/api/runs/${runId}/events`, { headers: { "last-event-id": first.at(-1)!.id! } }));
    const all = [...first, ...rest].map((f) => Number(f.id));
    expect(all).toEqual(all.map((_, i) => i + 1));
    expect(rest.at(-1)!.event).toBe("end");
    const after = await readSse(await s.t.call(`/api/runs/${runId}/events?after=${all.length - 2}`));
    expect(after.map((f) => Number(f.id))).toEqual([all.length - 1, all.length]);
  });

  // Issue #34: the page shows a finished turn by folding this list with the live fold.
  test("GET /history lists the run's stored events with adjacent deltas coalesced; unknown runs are 404", async () => {
    await using s = await setup([{ readLine: true }, { outFile: fixture("claude-partial", "long") }]);
    const { runId } = await (await s.t.json("POST", "/api/runs", { projectId: s.h.projectId, agentId: "claude", message: "long" })).json();
    const frames = await readSse(await s.t.call(`/api/runs/${runId}/events`));
    const res = await s.t.call(`/api/runs/${runId}/history`);
    expect(res.status).toBe(200);
    const body = RunHistoryResponse.parse(await res.json());
    expect(body.runId).toBe(runId);
    const streamed = frames.map((f) => f.data as RunEvent);
    expect(body.events.length).toBeLessThan(streamed.length);
    expect(body.events[0]).toEqual(streamed[0]!);
    expect(body.events.at(-1)).toEqual(streamed.at(-1)!);
    const text = (events: RunEvent[]) => events.map((e) => (e.type === "agent" && e.event.type === "text_delta" ? e.event.delta : "")).join("");
    expect(text(body.events)).toBe(text(streamed));
    const missing = await s.t.call("/api/runs/run_nope/history");
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBe("NOT_FOUND");
  });

  test("GET /history of a finished run is kept once read: later reads are that value, not its events read again", async () => {
    await using s = await setup([{ readLine: true }, { outFile: fixture("claude-partial", "long") }]);
    const { runId } = await (await s.t.json("POST", "/api/runs", { projectId: s.h.projectId, agentId: "claude", message: "long" })).json();
    await readSse(await s.t.call(`/api/runs/${runId}/events`));
    const first = await (await s.t.call(`/api/runs/${runId}/history`)).text();
    expect(JSON.parse(s.h.store.runs.storedHistory(runId)!)).toEqual(RunHistoryResponse.parse(JSON.parse(first)).events);
    // With its events gone from the database, the kept history still answers, unchanged.
    s.h.store.db.prepare("DELETE FROM run_event_batches WHERE run_id = ?").run(runId);
    const again = await s.t.call(`/api/runs/${runId}/history`);
    expect(again.status).toBe(200);
    expect(again.headers.get("content-type")).toContain("application/json");
    expect(await again.text()).toBe(first);
  });

  test("GET /history of a live run keeps nothing: what it streams later is read at the next open", async () => {
    using gateDir = tempDir("od-history-gate-");
    const gate = join(gateDir.path, "go");
    await using s = await setup([{ readLine: true }, { out: '{"type":"system","subtype":"init","session_id":"s"}' }, { waitForFile: gate }, { outFile: fixture("claude", "text") }]);
    const { runId } = await (await s.t.json("POST", "/api/runs", { projectId: s.h.projectId, agentId: "claude", message: "hi" })).json();
    await readSse(await s.t.call(`/api/runs/${runId}/events`), { limit: 2 });
    const during = RunHistoryResponse.parse(await (await s.t.call(`/api/runs/${runId}/history`)).json());
    expect(s.h.store.runs.storedHistory(runId)).toBeUndefined();
    writeFileSync(gate, "");
    const frames = await readSse(await s.t.call(`/api/runs/${runId}/events`));
    const after = RunHistoryResponse.parse(await (await s.t.call(`/api/runs/${runId}/history`)).json());
    expect(after.events.length).toBeGreaterThan(during.events.length);
    expect(after.events.at(-1)).toEqual(frames.at(-1)!.data as RunEvent);
  });

  test("cancel ends a running run as canceled", async () => {
    await using s = await setup([{ readLine: true }, { out: '{"type":"system","subtype":"init","session_id":"s"}' }, { hang: true }]);
    const { runId } = await (await s.t.json("POST", "/api/runs", { projectId: s.h.projectId, agentId: "claude", message: "slow" })).json();
    const firstFrames = await readSse(await s.t.call(`/api/runs/${runId}/events`), { limit: 2 });
    expect(firstFrames[0]!.event).toBe("start");
    const cancel = await s.t.json("POST", `/api/runs/${runId}/cancel`, {});
    expect(cancel.status).toBe(200);
    expect((await cancel.json()).run.status).toBe("canceled");
    const frames = await readSse(await s.t.call(`/api/runs/${runId}/events`));
    expect(frames.at(-1)).toMatchObject({ event: "end", data: { status: "canceled", failureCategory: "cancel" } });
  });

  test("bad request bodies are 400s with codes and zod paths; unknown ids are 404", async () => {
    await using s = await setup([]);
    const post = (body: unknown) => s.t.json("POST", "/api/runs", body).then(async (r) => [r.status, (await r.json()).error] as const);
    expect(await post({ agentId: "claude", message: "x" })).toEqual([400, expect.objectContaining({ code: "BAD_REQUEST", issues: [expect.objectContaining({ path: ["projectId"] })] })]);
    expect(await post({ projectId: s.h.projectId, agentId: "claude", message: "" })).toEqual([400, expect.objectContaining({ code: "BAD_REQUEST" })]);
    const blank = await post({ projectId: s.h.projectId, agentId: "claude", message: " \n\t " });
    expect(blank).toEqual([400, expect.objectContaining({ code: "BAD_REQUEST", issues: [expect.objectContaining({ path: ["message"] })] })]);
    expect(blank[1].message).toContain("only whitespace");
    expect(await post({ projectId: s.h.projectId, agentId: "claude", message: "x", extra: 1 })).toEqual([400, expect.objectContaining({ code: "BAD_REQUEST" })]);
    expect(await post({ projectId: s.h.projectId, agentId: "nope", message: "x" })).toEqual([400, expect.objectContaining({ code: "UNKNOWN_AGENT" })]);
    expect(await post({ projectId: "prj_x", agentId: "claude", message: "x" })).toEqual([404, expect.objectContaining({ code: "PROJECT_NOT_FOUND" })]);
    expect((await s.t.call("/api/runs/run_missing")).status).toBe(404);
    expect((await s.t.call("/api/runs/run_missing/events")).status).toBe(404);
    expect((await s.t.call(`/api/runs?status=weird`)).status).toBe(400);
    const badAfter = await s.t.call(`/api/runs/run_missing/events?after=-3`);
    expect(badAfter.status).toBe(404);
  });

  test("input to a run that is not live is a typed 409", async () => {
    await using s = await setup([{ readLine: true }, { outFile: fixture("claude", "text") }]);
    const { runId } = await (await s.t.json("POST", "/api/runs", { projectId: s.h.projectId, agentId: "claude", message: "hi" })).json();
    await readSse(await s.t.call(`/api/runs/${runId}/events`));
    const blank = await s.t.json("POST", `/api/runs/${runId}/input`, { message: "   " });
    expect([blank.status, (await blank.json()).error.code]).toEqual([400, "BAD_REQUEST"]);
    const res = await s.t.json("POST", `/api/runs/${runId}/input`, { message: "more" });
    expect(res.status).toBe(409);
    expect((await res.json()).error.code).toBe("RUN_NOT_LIVE");
  });
});

describe("/api/projects", () => {
  test("create in the data dir, register an existing folder, refuse relative, missing and duplicate paths", async () => {
    await using t = await startTestApp();
    const projects = new ProjectService(t.store, t.dataDir);
    await using app = await startTestApp({ dataDir: t.dataDir, modules: [projectRoutes(t.store, projects, new Credentials(TEST_TOKEN), testWorktrees(t.store), new DiskSpace(undefined))] });
    const created = await app.json("POST", "/api/projects", { name: "My Landing Page" });
    expect(created.status).toBe(201);
    const { project } = await created.json();
    expect(project.path).toBe(join(t.dataDir, "projects", "my-landing-page"));
    const again = await (await app.json("POST", "/api/projects", { name: "My Landing Page" })).json();
    expect(again.project.path).toBe(join(t.dataDir, "projects", "my-landing-page-2"));

    using elsewhere = tempDir("od-elsewhere-"); // not inside the data dir: that is od's own, never a project
    const existing = join(elsewhere.path, "site");
    mkdirSync(existing);
    expect((await app.json("POST", "/api/projects", { name: "x", path: existing })).status).toBe(201);
    expect((await (await app.json("POST", "/api/projects", { name: "x", path: existing })).json()).error.code).toBe("PROJECT_EXISTS");
    expect((await (await app.json("POST", "/api/projects", { name: "x", path: "relative/dir" })).json()).error.code).toBe("INVALID_PROJECT_PATH");
    expect((await (await app.json("POST", "/api/projects", { name: "x", path: join(t.dataDir, "missing") })).json()).error.code).toBe("INVALID_PROJECT_PATH");
    expect((await app.json("POST", "/api/projects", { name: "" })).status).toBe(400);

    const list = await (await app.call("/api/projects")).json();
    expect(list.projects).toHaveLength(3);
  });

  test("conversations: create, rename, delete; files listing and sandboxed raw preview; traversal refused", async () => {
    await using t = await startTestApp();
    await using app = await startTestApp({ dataDir: t.dataDir, modules: [projectRoutes(t.store, new ProjectService(t.store, t.dataDir), new Credentials(TEST_TOKEN), testWorktrees(t.store), new DiskSpace(undefined))] });
    const { project } = await (await app.json("POST", "/api/projects", { name: "p" })).json();
    const { conversation } = await (await app.json("POST", `/api/projects/${project.id}/conversations`, { title: "First" })).json();
    expect((await (await app.json("PUT", `/api/conversations/${conversation.id}`, { title: "Renamed" })).json()).conversation.title).toBe("Renamed");
    await Bun.write(join(project.path, "index.html"), "<script>parent.x=1</script>");
    const files = await (await app.call(`/api/projects/${project.id}/files`)).json();
    expect(files.files.map((f: { path: string }) => f.path)).toEqual(["index.html"]);
    const raw = await app.call(`/api/projects/${project.id}/files/raw?path=index.html`);
    expect(raw.headers.get("content-security-policy")).toBe("sandbox allow-scripts");
    expect(raw.headers.get("content-type")).toContain("text/html");
    expect((await app.call(`/api/projects/${project.id}/files/raw?path=../../etc/passwd`)).status).toBe(404);
    expect((await app.call(`/api/projects/${project.id}/files/raw?path=/etc/passwd`)).status).toBe(404);
    expect((await app.json("DELETE", `/api/conversations/${conversation.id}`, {})).status).toBe(200);
    expect((await app.call(`/api/conversations/${conversation.id}/messages`)).status).toBe(404);
  });
});
