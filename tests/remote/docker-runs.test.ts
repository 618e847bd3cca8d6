// Issue #21: a project in a container (docker://CONTAINER/path) runs its agent through `docker exec -i`, against a
// real Docker engine started for the test: the project check, a container without sh, the exec client or the
// container going away mid-run. What every machine does alike (a text run, cancel, staged inputs, changes,
// artifacts) is in every-machine.test.ts and the *-every-machine files. The container shares this machine's /usr and temp
// dir, so the fakes run there and what they record is visible here.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createRunInputs } from "../../server/inputs/run-inputs.ts";
import type { RunEvent } from "../../server/contracts/runs.ts";
import { ProjectService } from "../../server/projects/project-service.ts";
import { reachLocation } from "../../server/machines/remote-exec.ts";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";
import { endOf, fakeCliEnvThere, processesWithRunCookie, runHarness, type FakeStep } from "../support/fake-agents.ts";
import { startTestDocker, type TestDocker } from "../support/dockerd.ts";
import { isLivePid, killSurvivors } from "../support/survivors.ts";

let docker: TestDocker;
beforeAll(async () => {
  docker = await startTestDocker();
}, 120_000);
afterAll(() => docker?.close(), 60_000);

const claude = getAgentDef("claude") as RuntimeAgentDef;

async function poll(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

type DockerHarnessOptions = { def?: RuntimeAgentDef; setUp?: (projectDir: string) => void; inputs?: ReturnType<typeof createRunInputs>; container?: string; fake?: string };

async function dockerHarness(steps: FakeStep[], { def = claude, setUp, inputs, container = docker.container, fake }: DockerHarnessOptions = {}) {
  const h = await runHarness({
    ...(inputs ? { inputs } : {}),
    defs: [def],
    shims: { [def.bin]: fake },
    steps,
    timeouts: { cancelGraceMs: 300 },
    projectPath: (dir) => `docker://${container}${dir}`,
    remote: { env: { ...process.env, ...docker.env } },
  });
  setUp?.(h.projectDir);
  // What detection in the container finds in the CLI's help: the flags staged inputs are passed with.
  const help = "  --add-dir <dirs>\n  --mcp-config <files>";
  h.store.appConfig.update({ agentCliEnv: { [def.id]: fakeCliEnvThere(h, { FAKE_CLI_HELP: help }) } });
  return h;
}

describe("docker:// projects", () => {
  test("the folder is checked inside the container; a missing container is REMOTE_UNREACHABLE", async () => {
    await using h = await dockerHarness([]);
    const projects = new ProjectService(h.store, join(h.projectDir, "..", "data"), { env: { ...process.env, ...docker.env } });
    const sub = join(h.projectDir, "sub");
    await Bun.write(join(sub, "f"), "x");
    expect((await projects.add("c", `docker://${docker.container}${sub}`)).path).toBe(`docker://${docker.container}${sub}`);
    await expect(projects.add("c", `docker://${docker.container}${sub}-missing`)).rejects.toMatchObject({ code: "INVALID_PROJECT_PATH" });
    await expect(projects.add("c", `docker://no-such-container-od/${sub}`)).rejects.toMatchObject({ code: "REMOTE_UNREACHABLE" });
  });

  test("a container without sh is said to have no sh, not 'exit 126' or an agent that could not start (issue #36)", async () => {
    const bare = docker.withoutShell();
    const context = { env: { ...process.env, ...docker.env } };
    const location = { kind: "docker" as const, container: bare, path: "/" };
    expect(await reachLocation(location, context)).toEqual({ reached: false, timedOut: false, why: `there is no sh in container ${bare} (od runs its commands there with sh; use an image that has /bin/sh)` });
    await using h = await dockerHarness([]);
    const projects = new ProjectService(h.store, join(h.projectDir, "..", "data"), context);
    await expect(projects.add("c", `docker://${bare}/tmp`)).rejects.toMatchObject({ code: "REMOTE_UNREACHABLE", message: expect.stringContaining(`there is no sh in container ${bare}`) });
  });

  test("the docker exec client dying mid-run ends the run failed (connection lost), and nothing of it keeps running in the container", async () => {
    await using h = await dockerHarness([{ readLine: true }, { orphan: true }, { ignoreTerm: true }, { out: '{"type":"system","subtype":"init","session_id":"s1"}' }, { hang: true }]);
    const created = await h.service.create({ projectId: h.projectId, agentId: "claude", message: "slow" });
    try {
      await poll(() => h.ledger().some((l) => l.event === "orphan"));
      await poll(() => processesWithRunCookie(created.runId).length >= 2);
      const inContainer = processesWithRunCookie(created.runId);
      // The local `docker exec -i` client, as a dead engine connection or a killed CLI ends it.
      process.kill(h.service.get(created.runId)!.pid!, "SIGKILL");
      const events: RunEvent[] = [];
      for await (const event of h.service.events(created.runId)) events.push(event);
      expect(endOf(events)).toMatchObject({ status: "failed", failureDetail: "remote_connection_lost" });
      expect(endOf(events).reason).toContain(`container ${docker.container}`);
      expect(events.find((e) => e.type === "error")).toMatchObject({ error: { code: "REMOTE_CONNECTION_LOST" } });
      await poll(() => inContainer.filter(isLivePid).length === 0, 15_000);
      expect(processesWithRunCookie(created.runId)).toEqual([]);
    } finally {
      killSurvivors(h.ledgerPath, [created.runId]);
    }
  });

  test("the container going away mid-run ends the run failed (connection lost), with nothing of it left running", async () => {
    const container = docker.another();
    await using h = await dockerHarness([{ readLine: true }, { orphan: true }, { ignoreTerm: true }, { out: '{"type":"system","subtype":"init","session_id":"s1"}' }, { hang: true }], { container });
    const created = await h.service.create({ projectId: h.projectId, agentId: "claude", message: "slow" });
    try {
      await poll(() => processesWithRunCookie(created.runId).length >= 2);
      const inContainer = processesWithRunCookie(created.runId);
      execFileSync("docker", ["rm", "-f", container], { env: { ...process.env, ...docker.env }, stdio: "pipe" });
      const events: RunEvent[] = [];
      for await (const event of h.service.events(created.runId)) events.push(event);
      expect(endOf(events)).toMatchObject({ status: "failed", failureDetail: "remote_connection_lost" });
      expect(endOf(events).reason).toContain(`container ${container}`);
      expect(inContainer.filter(isLivePid)).toEqual([]);
    } finally {
      killSurvivors(h.ledgerPath, [created.runId]);
    }
  });

  test("pi in a container removed mid-run: the run and its stored message say the container was lost, not 'pi exited' (issue #34)", async () => {
    const container = docker.another();
    const pi = getAgentDef("pi") as RuntimeAgentDef;
    await using h = await dockerHarness([], { def: pi, container, fake: join(import.meta.dir, "..", "fakes", "pi-rpc-agent.ts") });
    const ledger = join(h.binDir, "..", "pi-ledger.jsonl");
    const script = { ledger, prompt: [{ event: { type: "agent_start" } }, { stderr: "\x1b[33mwarning:\x1b[0m the agent's own stderr\n" }, { waitForAbort: true }] };
    h.store.appConfig.update({ agentCliEnv: { pi: { ...fakeCliEnvThere(h), FAKE_PI_SCRIPT: JSON.stringify(script) } } });
    const created = await h.service.create({ projectId: h.projectId, agentId: "pi", message: "slow" });
    await poll(() => existsSync(ledger) && readFileSync(ledger, "utf8").includes('"prompt"'), 60_000);
    execFileSync("docker", ["rm", "-f", container], { env: { ...process.env, ...docker.env }, stdio: "pipe" });
    const events: RunEvent[] = [];
    for await (const event of h.service.events(created.runId)) events.push(event);
    const end = endOf(events);
    expect(end).toMatchObject({ status: "failed", failureDetail: "remote_connection_lost" });
    expect(end.reason).toContain(`container ${container} was lost`);
    expect(end.reason).not.toMatch(/warning|[\x00-\x1f]/);
    const answer = h.store.messages.list(h.service.get(created.runId)!.conversationId).find((message) => message.runId === created.runId);
    expect((answer?.events ?? []).filter((event) => event.type === "error")).toEqual([{ type: "error", message: end.reason, code: "REMOTE_CONNECTION_LOST" }]);
  }, 120_000);

});
