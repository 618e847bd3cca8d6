// Issue #21: a run on a remote project is decided by what detection found on that host, not on this machine: the
// agent must be available there, its flags and models are the ones probed there, and without an agent asked for
// the configured one (if available there) or the first available there runs. Each location's result is kept for a
// few minutes, filled by GET /api/agents?location= and od agents --on as well as by the runs themselves.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { MachineDetections } from "../../server/runtimes/machine-detections.ts";
import { AgentCatalog } from "../../server/runtimes/catalog.ts";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";
import { endOf, fakeCliEnvThere, runHarness, type RunHarness } from "../support/fake-agents.ts";
import { startTestSshd, SSH_TEST_HOST, type TestSshd } from "../support/sshd.ts";
import { tempDir } from "../support/temp.ts";
import { machineAt } from "../../server/machines/machine-of.ts";
import { testConnection, type ConnectionTestDeps } from "../../server/runs/connection-test.ts";

let sshd: TestSshd;
beforeAll(async () => {
  sshd = await startTestSshd();
});
afterAll(() => sshd?.close());

const claude = getAgentDef("claude") as RuntimeAgentDef;
const codex = getAgentDef("codex") as RuntimeAgentDef;
const amr = getAgentDef("amr") as RuntimeAgentDef;
const TEXT = join(import.meta.dir, "..", "fixtures", "claude", "text.jsonl");

type Options = { defs?: RuntimeAgentDef[]; agentEnv?: Record<string, string> };

/** Fakes on the remote side only (agentCliEnv PATH), every probe of theirs logged to `probeLog`. */
async function remoteHarness({ defs = [claude, codex], agentEnv = {} }: Options = {}, locations?: MachineDetections): Promise<RunHarness & { probeLog: string }> {
  const h = await runHarness({
    defs,
    shims: { claude: undefined, vela: undefined },
    steps: [{ readLine: true }, { outFile: TEXT }],
    projectPath: (dir) => `ssh://${SSH_TEST_HOST}${dir}`,
    remote: { env: { ...process.env, ...sshd.env }, controlDir: sshd.controlDir },
    ...(locations ? { locations } : {}),
  });
  const probeLog = join(h.binDir, "..", "probes.jsonl");
  const env = fakeCliEnvThere(h, { FAKE_CLI_PROBE_LOG: probeLog, ...agentEnv });
  // codex has no fake on the remote PATH: it is not installed there.
  h.store.appConfig.update({ agentCliEnv: { claude: env, codex: env, amr: env } });
  return Object.assign(h, { probeLog });
}

const probes = (log: string) => (existsSync(log) ? readFileSync(log, "utf8").trim().split("\n").filter(Boolean).length : 0);
const startArgv = (h: RunHarness) => (h.ledger().find((l) => l.event === "start") as { argv: string[] }).argv;

describe("a run on an ssh:// project uses that host's detection", () => {
  test("an agent not installed there is refused at once: 400 AGENT_UNAVAILABLE naming the host and why; nothing runs", async () => {
    await using h = await remoteHarness();
    const refused = h.service.create({ projectId: h.projectId, agentId: "codex", message: "hi" });
    await expect(refused).rejects.toMatchObject({ kind: "invalid", code: "AGENT_UNAVAILABLE" });
    const message = (await refused.catch((error: Error) => error.message)) as string;
    expect(message).toStartWith(`Codex is not available on ${SSH_TEST_HOST}: `);
    expect(message).toContain(`not found on the PATH of ${SSH_TEST_HOST}`);
    expect(h.ledger()).toEqual([]);
  });

  test("a refusal from a kept result is checked once more: the CLI installed there since runs", async () => {
    await using h = await remoteHarness();
    h.store.appConfig.update({ agentCliEnv: { claude: { PATH: "/usr/bin:/bin" } } });
    await expect(h.service.create({ projectId: h.projectId, agentId: "claude", message: "hi" })).rejects.toMatchObject({ code: "AGENT_UNAVAILABLE" });
    h.store.appConfig.update({ agentCliEnv: { claude: fakeCliEnvThere(h) } });
    expect(endOf((await h.run({ agentId: "claude", message: "hi" })).events).status).toBe("succeeded");
  });

  test("without an agent asked for: the configured one is skipped when it is missing there, the first available there runs", async () => {
    await using h = await remoteHarness();
    h.store.appConfig.update({ agentId: "codex" });
    const { runId } = await h.service.create({ projectId: h.projectId, message: "hi" });
    const events = [];
    for await (const event of h.service.events(runId)) events.push(event);
    expect(endOf(events).status).toBe("succeeded");
    expect(events.find((e) => e.type === "start")).toMatchObject({ agentId: "claude" });
  });

  test("nothing available there is 400 NO_AGENT_AVAILABLE naming the host", async () => {
    await using h = await remoteHarness({ defs: [codex] });
    await expect(h.service.create({ projectId: h.projectId, message: "hi" })).rejects.toMatchObject({ kind: "invalid", code: "NO_AGENT_AVAILABLE", message: expect.stringContaining(SSH_TEST_HOST) });
  });

  test("the flags come from the CLI's help there", async () => {
    await using h = await remoteHarness({ agentEnv: { FAKE_CLI_HELP: "  --include-partial-messages  stream deltas" } });
    expect(endOf((await h.run({ agentId: "claude", message: "hi" })).events).status).toBe("succeeded");
    expect(startArgv(h)).toContain("--include-partial-messages");
    expect(startArgv(h)).not.toContain("--add-dir");
  });

  test("a model is checked against the list the CLI gave there", async () => {
    await using h = await remoteHarness({ defs: [amr], agentEnv: { FAKE_CLI_MODELS: JSON.stringify({ data: [{ id: "public_model_glm_5_1" }] }) } });
    const refused = h.service.create({ projectId: h.projectId, agentId: "amr", model: "not-there", message: "hi" });
    await expect(refused).rejects.toMatchObject({ kind: "invalid", code: "UNKNOWN_MODEL", message: expect.stringContaining("glm-5.1") });
  });

  test("an agent still being probed there at the deadline: the run waits for its probes, then starts (issue #34)", async () => {
    const locations = new MachineDetections({ defs: [claude], deps: () => ({ env: { PATH: "/usr/bin:/bin" }, configuredEnv: (id) => store().appConfig.get().agentCliEnv?.[id] }), deadlineMs: 300 });
    // Its version probe answers long after the pass stops waiting (a loaded host).
    await using h = await remoteHarness({ defs: [claude], agentEnv: { FAKE_CLI_VERSION_DELAY_MS: "3000" } }, locations);
    const store = () => h.store;
    const { events } = await h.run({ agentId: "claude", message: "hi" });
    expect(endOf(events).status).toBe("succeeded");
  }, 120_000);

  test("an unreachable host is REMOTE_UNREACHABLE, fast, before anything is stored", async () => {
    await using h = await remoteHarness();
    const project = h.store.projects.create("gone", "ssh://127.0.0.1:1/srv/app");
    const started = Date.now();
    await expect(h.service.create({ projectId: project.id, agentId: "claude", message: "hi" })).rejects.toMatchObject({ kind: "machine_failed", code: "REMOTE_UNREACHABLE", message: expect.stringContaining("cannot reach 127.0.0.1") });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(h.store.runs.list({ projectId: project.id })).toEqual([]);
  });

  test("the host is probed once: the next run within the TTL uses the kept result", async () => {
    await using h = await remoteHarness({ defs: [claude] });
    expect(endOf((await h.run({ agentId: "claude", message: "one" })).events).status).toBe("succeeded");
    const afterFirst = probes(h.probeLog);
    expect(afterFirst).toBeGreaterThan(0);
    expect(endOf((await h.run({ agentId: "claude", message: "two" })).events).status).toBe("succeeded");
    expect(probes(h.probeLog)).toBe(afterFirst);
  });

  test("past the TTL the host is probed again", async () => {
    const locations = new MachineDetections({ defs: [claude], deps: () => ({ env: { PATH: "/usr/bin:/bin" }, configuredEnv: (id) => store().appConfig.get().agentCliEnv?.[id] }), deadlineMs: 10_000, ttlMs: 0 });
    await using h = await remoteHarness({ defs: [claude] }, locations);
    const store = () => h.store;
    expect(endOf((await h.run({ agentId: "claude", message: "one" })).events).status).toBe("succeeded");
    const afterFirst = probes(h.probeLog);
    expect(afterFirst).toBeGreaterThan(0);
    expect(endOf((await h.run({ agentId: "claude", message: "two" })).events).status).toBe("succeeded");
    expect(probes(h.probeLog)).toBe(afterFirst * 2);
  });

  test("detection asked for there (GET /api/agents?location=, od agents --on) fills what the runs there use", async () => {
    let h: Awaited<ReturnType<typeof remoteHarness>> | undefined;
    const context = { env: { ...process.env, ...sshd.env }, controlDir: sshd.controlDir };
    const catalog = new AgentCatalog({ defs: [claude], deps: () => ({ env: { PATH: "/usr/bin:/bin" }, configuredEnv: (id) => h!.store.appConfig.get().agentCliEnv?.[id] }), remote: context });
    h = await remoteHarness({ defs: [claude], agentEnv: { FAKE_CLI_HELP: "  --include-partial-messages  stream deltas" } }, catalog.locations);
    await using _ = h;
    // Another folder on the same host: what is found there is the host's, whatever the folder.
    const agents = await catalog.detectOn(catalog.machineAt(`ssh://${SSH_TEST_HOST}/tmp`));
    expect(agents[0]).toMatchObject({ id: "claude", state: "available", capabilities: { partialMessages: true } });
    const detected = probes(h.probeLog);
    // The run probes nothing: the flag it passes is the one that detection found.
    const { FAKE_CLI_HELP: _help, ...withoutHelp } = h.store.appConfig.get().agentCliEnv!.claude!;
    h.store.appConfig.update({ agentCliEnv: { claude: withoutHelp } });
    expect(endOf((await h.run({ agentId: "claude", message: "hi" })).events).status).toBe("succeeded");
    expect(startArgv(h)).toContain("--include-partial-messages");
    expect(probes(h.probeLog)).toBe(detected);
  });
});

// Issue #36 item 1: Test connection asks the agent on the project's machine, not this one.
test("Test connection runs the agent on the machine asked for: there it answers, here it is not installed", async () => {
  await using h = await remoteHarness();
  using data = tempDir("od-conn-remote-");
  const context = { env: { ...process.env, ...sshd.env }, controlDir: sshd.controlDir };
  const detections = new MachineDetections({
    defs: [claude, codex],
    deps: () => ({ env: context.env, configuredEnv: (id) => h.store.appConfig.get().agentCliEnv?.[id] }),
    deadlineMs: 30_000,
  });
  const deps: ConnectionTestDeps = {
    defs: [claude, codex],
    // This machine has no agent at all.
    agents: { list: async () => [], capabilities: () => ({}), liveModels: () => undefined },
    resolveLaunch: () => undefined,
    env: context.env,
    dataDir: data.path,
    appConfig: () => h.store.appConfig.get(),
    machines: { at: (url) => machineAt(url, context), detections },
  };
  const there = await testConnection(deps, { agentId: "claude", location: `ssh://${SSH_TEST_HOST}` });
  expect(there).toMatchObject({ ok: true, agentName: "Claude Code" });
  const start = h.ledger().find((line) => line.event === "start") as { cwd: string } | undefined;
  expect(start?.cwd).toContain("od-stage-conn_");
  expect(await testConnection(deps, { agentId: "codex", location: `ssh://${SSH_TEST_HOST}` })).toMatchObject({ ok: false, kind: "not_installed", detail: expect.stringContaining(SSH_TEST_HOST) });
  expect(await testConnection(deps, { agentId: "claude" })).toMatchObject({ ok: false, kind: "not_installed" });
  expect(await testConnection(deps, { agentId: "claude", location: "/not/a/machine" })).toMatchObject({ ok: false, kind: "config" });
}, 60_000);
