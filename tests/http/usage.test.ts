// Issue #19: GET /api/usage — each finished run's tokens, cost (only as reported) and duration, from the store.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { UsageResponse } from "../../server/contracts/usage.ts";
import { usageRoutes } from "../../server/http/usage.ts";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import { openDatabase, schemaVersion } from "../../server/store/database.ts";
import { MIGRATIONS } from "../../server/store/migrations.ts";
import { startTestApp } from "../support/app.ts";
import { endOf, runHarness } from "../support/fake-agents.ts";
import { tempDir } from "../support/temp.ts";

const fixture = (cli: string, scenario: string) => join(import.meta.dir, "..", "fixtures", cli, `${scenario}.jsonl`);

describe("/api/usage", () => {
  test("two finished runs: tokens and cost as the CLI reported them, model, duration, newest first", async () => {
    await using h = await runHarness({ defs: [getAgentDef("claude")!], shims: { claude: undefined }, steps: [{ readLine: true }, { outFile: fixture("claude", "write") }] });
    const first = await h.run({ agentId: "claude", message: "write" });
    expect(endOf(first.events).status).toBe("succeeded");
    h.script([{ readLine: true }, { outFile: fixture("claude", "subagent-task.synthetic") }]);
    const second = await h.run({ agentId: "claude", message: "survey" });
    expect(endOf(second.events).status).toBe("succeeded");

    await using t = await startTestApp({ modules: [usageRoutes(h.store.runs)] });
    const res = await t.call("/api/usage");
    expect(res.status).toBe(200);
    const body = UsageResponse.parse(await res.json());
    expect(body.runs.map((r) => r.runId)).toEqual([second.runId, first.runId]);
    expect(body.runs[0]).toMatchObject({ agentId: "claude", model: "claude-sonnet-4-5-20250929", status: "succeeded", inputTokens: 226, outputTokens: 130, costUsd: 0.01842 });
    expect(body.runs[1]).toMatchObject({ agentId: "claude", model: "claude-opus-5-5", inputTokens: 20, outputTokens: 19, costUsd: 0.00046 });
    for (const run of body.runs) {
      expect(run.durationMs).toBe(run.endedAt! - run.startedAt!);
      expect(run.durationMs).toBeGreaterThanOrEqual(0);
    }
  });

  test("a CLI that reports no cost gets none: tokens and cost stay null, never estimated", async () => {
    await using h = await runHarness({ defs: [getAgentDef("claude")!], shims: { claude: undefined }, steps: [{ readLine: true }, { out: '{"type":"system","subtype":"init","model":"m1","session_id":"s"}' }, { out: '{"type":"result","subtype":"success","is_error":false,"result":"ok"}' }] });
    const run = await h.run({ agentId: "claude", message: "hi" });
    await using t = await startTestApp({ modules: [usageRoutes(h.store.runs)] });
    const body = UsageResponse.parse(await (await t.call("/api/usage")).json());
    expect(body.runs).toHaveLength(1);
    expect(body.runs[0]).toMatchObject({ runId: run.runId, model: "m1", inputTokens: null, outputTokens: null, costUsd: null });
  });

  test("?since= keeps later runs only; a bad query is a typed 400", async () => {
    await using h = await runHarness({ defs: [getAgentDef("claude")!], shims: { claude: undefined }, steps: [{ readLine: true }, { outFile: fixture("claude", "write") }] });
    await h.run({ agentId: "claude", message: "write" });
    await using t = await startTestApp({ modules: [usageRoutes(h.store.runs)] });
    const future = Date.now() + 3_600_000;
    expect((await (await t.call(`/api/usage?since=${future}`)).json()).runs).toEqual([]);
    expect((await (await t.call("/api/usage?since=0")).json()).runs).toHaveLength(1);
    const bad = await t.call("/api/usage?since=yesterday");
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe("BAD_REQUEST");
  });
});

test("the usage migration (7) copies the figures of runs stored before it from their messages, skipping malformed JSON", () => {
  using dir = tempDir("od-usage-migration-");
  const path = join(dir.path, "od.db");
  const old = openDatabase(path, openBunSqlite, MIGRATIONS.filter((m) => m.version < 7));
  const insertRun = old.prepare("INSERT INTO runs (id, project_id, conversation_id, agent_id, model, status, created_at, started_at, ended_at) VALUES (?, 'p', 'c', 'claude', NULL, ?, 1, 1, 2)");
  const insertMessage = old.prepare("INSERT INTO messages (id, conversation_id, role, text, events_json, run_id, created_at) VALUES (?, 'c', 'assistant', '', ?, ?, 1)");
  old.exec("INSERT INTO projects (id, name, path, created_at) VALUES ('p', 'p', '/p', 1); INSERT INTO conversations (id, project_id, title, created_at, updated_at) VALUES ('c', 'p', 't', 1, 1)");
  insertRun.run("r1", "succeeded");
  insertMessage.run("m1", JSON.stringify([{ type: "usage", inputTokens: 1 }, { type: "text", text: "x" }, "odd", { type: "usage", inputTokens: 5, outputTokens: 7, costUsd: 0.25 }]), "r1");
  insertRun.run("r2", "failed");
  insertMessage.run("m2", "{not json", "r2");
  insertRun.run("r3", "succeeded");
  insertMessage.run("m3", null, "r3");
  old.close();

  const db = openDatabase(path, openBunSqlite);
  expect(schemaVersion(db)).toBe(MIGRATIONS.at(-1)!.version);
  const rows = db.prepare("SELECT id, input_tokens, output_tokens, cost_usd FROM runs ORDER BY id").all();
  expect(rows).toEqual([
    { id: "r1", input_tokens: 5, output_tokens: 7, cost_usd: 0.25 },
    { id: "r2", input_tokens: null, output_tokens: null, cost_usd: null },
    { id: "r3", input_tokens: null, output_tokens: null, cost_usd: null },
  ]);
  db.close();
});
