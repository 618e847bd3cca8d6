// The connection test against fake CLIs (real processes): a working agent answers ok, a login problem is `auth`,
// a missing CLI is `not_installed`, a silent one times out — and every time nothing is left running, no scratch
// folder stays behind and no conversation or run is recorded.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { ConnectionTestResult, kindOf, testConnection, type ConnectionTestDeps } from "../../server/runs/connection-test.ts";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";
import type { AgentInfo } from "../../server/contracts/agents.ts";
import { processesWithRunCookie, runHarness, type RunHarness } from "../support/fake-agents.ts";

const fixture = (cli: string, scenario: string) => join(import.meta.dir, "..", "fixtures", cli, `${scenario}.jsonl`);
const def = (id: string) => getAgentDef(id)! as RuntimeAgentDef;

function depsFor(h: RunHarness, defs: RuntimeAgentDef[], over: Partial<ConnectionTestDeps> = {}): ConnectionTestDeps {
  const infos = defs.map((d) => ({ id: d.id, state: "available", available: true, diagnostics: [] }) as unknown as AgentInfo);
  return {
    defs,
    agents: { list: async () => infos, capabilities: () => ({}), liveModels: () => undefined },
    env: h.env,
    dataDir: join(h.projectDir, "..", "data"),
    appConfig: () => h.store.appConfig.get(),
    ...over,
  };
}

/** The test's own child left nothing: its cookie (recorded by the fake) is on no live process. */
function expectNothingLeft(h: RunHarness, deps: ConnectionTestDeps): void {
  const runIds = h.ledger().flatMap((line) => ((line.env as Record<string, string>)?.OD_RUN_ID ? [(line.env as Record<string, string>).OD_RUN_ID!] : []));
  expect(runIds.length).toBeGreaterThan(0);
  for (const id of new Set(runIds)) {
    expect(id).toStartWith("conn_");
    expect(processesWithRunCookie(id)).toEqual([]);
  }
  const scratchRoot = join(deps.dataDir, "connection-tests");
  expect(existsSync(scratchRoot) ? readdirSync(scratchRoot) : []).toEqual([]);
  expect(h.store.conversations.listForProject(h.projectId)).toEqual([]);
  expect(h.store.runs.list({})).toEqual([]);
}

describe("testConnection", () => {
  test.concurrent("a working claude: ok, its reply as detail, the fixed prompt sent from a scratch folder", async () => {
    await using h = await runHarness({ defs: [def("claude")], shims: { claude: undefined }, steps: [{ readLine: true }, { outFile: fixture("claude", "text") }] });
    const deps = depsFor(h, [def("claude")]);
    const result = await testConnection(deps, { agentId: "claude", model: "sonnet" });
    expect(ConnectionTestResult.parse(result)).toMatchObject({ ok: true, agentName: "Claude Code", model: "sonnet" });
    // Made private like the rest of the data dir, so the next start does not warn about od's own folder.
    expect(statSync(join(deps.dataDir, "connection-tests")).mode & 0o777).toBe(0o700);
    expect(result.kind).toBeUndefined();
    expect(result.detail!.length).toBeGreaterThan(0);
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    const [start] = h.ledger();
    expect(start!.cwd as string).toStartWith(join(deps.dataDir, "connection-tests"));
    expect(start!.argv).toEqual(expect.arrayContaining(["--model", "sonnet"]));
    const line = h.ledger().find((l) => l.event === "stdin-line")!.line as string;
    expect(JSON.parse(line).message.content[0].text).toBe("Reply with the single word OK.");
    expectNothingLeft(h, deps);
  });

  test.concurrent("a recorded 401: kind auth, with the login hint in detail", async () => {
    await using h = await runHarness({ defs: [def("claude")], shims: { claude: undefined }, steps: [{ readLine: true }, { outFile: fixture("claude", "error") }, { exit: 1 }] });
    const deps = depsFor(h, [def("claude")]);
    const result = await testConnection(deps, { agentId: "claude" });
    expect(result).toMatchObject({ ok: false, kind: "auth", agentName: "Claude Code" });
    expect(result.detail).toContain("claude auth login");
    expectNothingLeft(h, deps);
  });

  test.concurrent("a CLI that is not on PATH: not_installed, nothing spawned", async () => {
    await using h = await runHarness({ defs: [def("codex")], shims: {} });
    const deps = depsFor(h, [def("codex")]);
    const result = await testConnection(deps, { agentId: "codex" });
    expect(result).toMatchObject({ ok: false, kind: "not_installed", agentName: def("codex").name });
    expect(h.ledger()).toEqual([]);
  });

  test.concurrent("an agent that never answers is stopped by the first-output watchdog, its orphan swept", async () => {
    await using h = await runHarness({ defs: [def("opencode")], shims: { opencode: undefined }, steps: [{ readAll: true }, { orphan: "holdStdout" }, { hang: true }] });
    const deps = depsFor(h, [def("opencode")], { timeouts: { firstOutputMs: 400, cancelGraceMs: 300 } });
    const result = await testConnection(deps, { agentId: "opencode" });
    expect(result).toMatchObject({ ok: false, kind: "timeout" });
    expectNothingLeft(h, deps);
  });

  test.concurrent("an aborted test (the client went away) stops the agent", async () => {
    await using h = await runHarness({ defs: [def("opencode")], shims: { opencode: undefined }, steps: [{ readAll: true }, { hang: true }] });
    const deps = depsFor(h, [def("opencode")], { timeouts: { cancelGraceMs: 300 } });
    const abort = new AbortController();
    const pending = testConnection(deps, { agentId: "opencode" }, abort.signal);
    const deadline = Date.now() + 10_000;
    while (!h.ledger().length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    abort.abort();
    expect((await pending).ok).toBe(false);
    expectNothingLeft(h, deps);
  });

  test.concurrent("an unknown agent, a malformed model, a model a fixed-list agent lacks and a setup-required agent fail before spawning", async () => {
    await using h = await runHarness({ defs: [def("claude")], shims: { claude: undefined } });
    const fixedList = { ...def("claude"), supportsCustomModel: false, fallbackModels: [{ id: "default", label: "Default" }] } as RuntimeAgentDef;
    const deps = depsFor(h, [fixedList]);
    expect(await testConnection(deps, { agentId: "nope" })).toMatchObject({ ok: false, kind: "config" });
    expect(await testConnection(deps, { agentId: "claude", model: "two words" })).toMatchObject({ ok: false, kind: "invalid_model_id" });
    expect(await testConnection(deps, { agentId: "claude", model: "gpt-9" })).toMatchObject({ ok: false, kind: "invalid_model_id" });
    const setupRequired = { id: "claude", state: "setup-required", available: false, diagnostics: [{ message: "needs its profile" }] } as unknown as AgentInfo;
    const blocked = { ...deps, agents: { ...deps.agents, list: async () => [setupRequired] } };
    expect(await testConnection(blocked, { agentId: "claude" })).toMatchObject({ ok: false, kind: "config", detail: "needs its profile" });
    expect(h.ledger()).toEqual([]);
  });

  test("kindOf maps failure categories and refines by detail", () => {
    expect(kindOf({ failureCategory: "config", failureDetail: "cli_not_installed" })).toBe("not_installed");
    expect(kindOf({ failureCategory: "config", failureDetail: "model_unavailable" })).toBe("invalid_model_id");
    expect(kindOf({ failureCategory: "quota" })).toBe("quota");
    expect(kindOf({ failureCategory: "upstream" })).toBe("upstream");
    expect(kindOf({ failureCategory: "crash" })).toBe("unknown");
    expect(kindOf({ failureCategory: "cancel" })).toBe("unknown");
  });
});
