// Issue #21: a project in a container (docker://CONTAINER/path) runs its agent through `docker exec -i`, against a
// real Docker engine started for the test: project check, a text run, and cancel with a TERM-ignoring grandchild
// (0 survivors in the container), and a run's skills and MCP config staged inside the container. The container
// shares this machine's /usr and temp dir, so the fakes run there and what they record is visible here.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRunInputs } from "../../server/inputs/run-inputs.ts";
import type { RunEvent } from "../../server/contracts/runs.ts";
import { ProjectService } from "../../server/projects/project-service.ts";
import { reachLocation } from "../../server/machines/remote-exec.ts";
import { SkillLibrary } from "../../server/skills/library.ts";
import { writeSkill } from "../support/skill-fixtures.ts";
import { tempDir } from "../support/temp.ts";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";
import { agentEvents, endOf, fakeCliEnvThere, processesWithRunCookie, runHarness, type FakeStep } from "../support/fake-agents.ts";
import { startTestDocker, type TestDocker } from "../support/dockerd.ts";
import { isLivePid, killSurvivors } from "../support/survivors.ts";

let docker: TestDocker;
beforeAll(async () => {
  docker = await startTestDocker();
}, 120_000);
afterAll(() => docker?.close(), 60_000);

const claude = getAgentDef("claude") as RuntimeAgentDef;
const deepseek = getAgentDef("deepseek") as RuntimeAgentDef;

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

  test("a text run streams the answer from inside the container", async () => {
    await using h = await dockerHarness([{ readLine: true }, { outFile: join(import.meta.dir, "..", "fixtures", "claude", "text.jsonl") }]);
    const { events, runId } = await h.run({ agentId: "claude", message: "hello in a container" });
    expect(endOf(events)).toMatchObject({ status: "succeeded" });
    expect(agentEvents(events).some((e) => e.type === "text_delta")).toBe(true);
    expect((h.ledger().find((l) => l.event === "start") as { cwd: string }).cwd).toBe(h.projectDir);
    expect(processesWithRunCookie(runId)).toEqual([]);
  });

  test("cancel ends the run's processes in the container, a TERM-ignoring grandchild included", async () => {
    await using h = await dockerHarness([{ readLine: true }, { orphan: "holdStdout" }, { ignoreTerm: true }, { out: '{"type":"system","subtype":"init","session_id":"s1"}' }, { hang: true }]);
    const created = await h.service.create({ projectId: h.projectId, agentId: "claude", message: "slow" });
    try {
      await poll(() => processesWithRunCookie(created.runId).length >= 2);
      const inContainer = processesWithRunCookie(created.runId);
      expect(await h.service.cancel(created.runId)).toBe(true);
      const events: RunEvent[] = [];
      for await (const event of h.service.events(created.runId)) events.push(event);
      expect(endOf(events)).toMatchObject({ status: "canceled" });
      expect(inContainer.filter(isLivePid)).toEqual([]);
    } finally {
      killSurvivors(h.ledgerPath, [created.runId]);
    }
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

  test("a run's changes are read and its plain-stream artifacts written inside the container", async () => {
    const page = `<artifact identifier="page" type="text/html">\n<p>from the container</p>\n</artifact>`;
    const steps = [{ writeFile: { path: "app.txt", content: "one\ntwo\n" } }, { writeFile: { path: "it's $(x)\n.txt", content: "new\n" } }, ...page.split("\n").map((out) => ({ out })), { readAll: true }];
    const setUp = (dir: string) => {
      writeFileSync(join(dir, "app.txt"), "one\n");
      const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false", ...args], { cwd: dir, stdio: "pipe" });
      git("init", "-q");
      git("add", "-A");
      git("commit", "-q", "-m", "start");
    };
    await using h = await dockerHarness(steps, { def: deepseek, setUp });
    const { events, runId } = await h.run({ agentId: "deepseek", message: "make a page" });
    expect(endOf(events)).toMatchObject({ status: "succeeded", files: ["app.txt", "it's $(x)\n.txt", "page.html"] });
    expect(events.filter((e) => e.type === "diagnostic")).toEqual([]);
    expect(readFileSync(join(h.projectDir, "page.html"), "utf8")).toBe("<p>from the container</p>\n");
    const saved = h.store.runChanges.list(runId);
    expect(saved.source).toBe("git");
    expect(saved.changes.map((c) => [c.path, c.kind, c.diff])).toEqual([
      ["app.txt", "modified", "--- a/app.txt\n+++ b/app.txt\n@@ -1,1 +1,2 @@\n one\n+two\n"],
      ["it's $(x)\n.txt", "created", expect.stringContaining("+new\n")],
      ["page.html", "created", expect.stringContaining("+<p>from the container</p>\n")],
    ]);
  });

  test("a run's skill and MCP config are staged inside the container, and removed when it ends", async () => {
    using temp = tempDir("od-docker-inputs-");
    writeSkill(join(temp.path, "skills"), "it's $(x) sk", { files: { "guide.md": "in the container" } });
    writeFileSync(join(temp.path, "mcp.json"), JSON.stringify({ servers: [{ name: "srv", type: "stdio", command: "mcp-srv" }] }));
    const skills = new SkillLibrary({ bundled: () => join(temp.path, "bundled"), user: join(temp.path, "skills") });
    await using h = await dockerHarness(
      [{ readLine: true }, { recordFiles: true }, { outFile: join(import.meta.dir, "..", "fixtures", "claude", "text.jsonl") }],
      { inputs: createRunInputs({ skills, userMcpPath: join(temp.path, "mcp.json") }) },
    );
    const { events, runId } = await h.run({ agentId: "claude", message: "use it", skillIds: [skills.list()[0]!.id] });
    await h.service.wait(runId);
    expect(endOf(events)).toMatchObject({ status: "succeeded" });
    const argv = (h.ledger().find((l) => l.event === "start") as { argv: string[] }).argv;
    const mcpConfig = argv[argv.indexOf("--mcp-config") + 1]!;
    const skillsRoot = argv[argv.indexOf("--add-dir") + 1]!;
    // The container's temp dir is this machine's (tests/support/dockerd.ts): what is gone there is gone here.
    expect(mcpConfig.startsWith(`${tmpdir()}/`)).toBe(true);
    expect(mcpConfig).toMatch(new RegExp(`/od-stage-${runId}\\.[^/]+/mcp\\.json$`));
    const files = (h.ledger().find((l) => l.event === "files") as { files: Record<string, string> }).files;
    const guide = Object.keys(files).find((path) => path.startsWith(`${skillsRoot}/it's $(x) sk-`) && path.endsWith("/guide.md"))!;
    expect(Buffer.from(files[guide]!, "base64").toString()).toBe("in the container");
    expect(Object.keys(JSON.parse(Buffer.from(files[mcpConfig]!, "base64").toString()).mcpServers)).toEqual(["srv"]);
    expect(existsSync(skillsRoot)).toBe(false);
    expect(existsSync(mcpConfig)).toBe(false);
  });
});
