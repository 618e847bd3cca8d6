// POST /api/test/connection through the app: always 200 with a ConnectionTestResult (ok, auth failure, not
// installed), a malformed body is 400.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { connectionTestRoutes } from "../../server/http/connection-test.ts";
import { ConnectionTestResult } from "../../server/runs/connection-test.ts";
import { AgentCatalog } from "../../server/runtimes/catalog.ts";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";
import { startTestApp } from "../support/app.ts";
import { runHarness } from "../support/fake-agents.ts";

const fixture = (scenario: string) => join(import.meta.dir, "..", "fixtures", "claude", `${scenario}.jsonl`);

async function setup() {
  const defs = [getAgentDef("claude"), getAgentDef("codex")] as RuntimeAgentDef[];
  // The harness gives a temp PATH with a fake `claude` (codex stays missing) and a script file.
  const h = await runHarness({ defs, shims: { claude: undefined } });
  const catalog = new AgentCatalog({ defs, deps: () => ({ env: h.env }) });
  const app = await startTestApp({
    modules: [connectionTestRoutes({ catalog, defs, env: h.env, dataDir: join(h.projectDir, "..", "data"), appConfig: () => h.store.appConfig.get() })],
  });
  return {
    h,
    app,
    test: async (body: unknown) => {
      const response = await app.json("POST", "/api/test/connection", body);
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
    async [Symbol.asyncDispose]() {
      await app[Symbol.asyncDispose]();
      await h.close();
    },
  };
}

test("a working agent answers 200 ok; a login failure and a missing CLI answer 200 with their kind", async () => {
  await using s = await setup();
  s.h.script([{ readLine: true }, { outFile: fixture("text") }]);
  const ok = await s.test({ agentId: "claude" });
  expect(ok.status).toBe(200);
  expect(ConnectionTestResult.parse(ok.body)).toMatchObject({ ok: true, agentName: "Claude Code" });

  s.h.script([{ readLine: true }, { outFile: fixture("error") }, { exit: 1 }]);
  const auth = await s.test({ mode: "agent", agentId: "claude" });
  expect(auth.status).toBe(200);
  expect(auth.body).toMatchObject({ ok: false, kind: "auth" });

  const missing = await s.test({ agentId: "codex", model: "gpt-5" });
  expect(missing.status).toBe(200);
  expect(missing.body).toMatchObject({ ok: false, kind: "not_installed", model: "gpt-5" });

}, 30_000);

test("a body without agentId is a 400", async () => {
  await using s = await setup();
  const bad = await s.test({ model: "x" });
  expect(bad.status).toBe(400);
  expect(bad.body).toMatchObject({ error: { code: "BAD_REQUEST" } });
});
