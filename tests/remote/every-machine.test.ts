// Issue #36: a project behaves the same on every kind of machine. One suite, run for a project on this machine, on
// the test sshd and in a container of the test Docker engine: a text run streams from there in the project folder
// and leaves nothing running; cancel ends the run's processes there, a TERM-ignoring grandchild included; a run that
// writes a file records it (its change, its files, the files panel lists and reads it); a run's skill and MCP config
// reach the agent there and are gone after it; a project's own MCP list and skills are read there; an uploaded
// image reaches the agent there; and detection finds the agent there. The container shares this machine's /usr and
// temp dir, so the fake CLI runs in all three and what it records is visible here.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { RunEvent } from "../../server/contracts/runs.ts";
import { createRunInputs } from "../../server/inputs/run-inputs.ts";
import { uploadsRootOf } from "../../server/inputs/upload-root.ts";
import { placeOf } from "../../server/machines/machine-of.ts";
import { readProjectMcpList, writeProjectMcpList } from "../../server/mcp/project-mcp-file.ts";
import { ProjectService } from "../../server/projects/project-service.ts";
import { AgentCatalog } from "../../server/runtimes/catalog.ts";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";
import { projectSkillsOn } from "../../server/skills/project-skills-on.ts";
import { SkillLibrary } from "../../server/skills/library.ts";
import { agentEvents, endOf, fakeCliEnvThere, processesWithRunCookie, runHarness, type FakeStep } from "../support/fake-agents.ts";
import { writeSkill } from "../support/skill-fixtures.ts";
import { isLivePid, killSurvivors } from "../support/survivors.ts";
import { machineKinds, onMachine, useTestMachines } from "../support/test-machines.ts";
import { tempDir } from "../support/temp.ts";

const engines = useTestMachines();
const KINDS = machineKinds(engines).map((kind) => [kind.name, kind] as const);

const claude = getAgentDef("claude") as RuntimeAgentDef;
const TEXT = join(import.meta.dir, "..", "fixtures", "claude", "text.jsonl");
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 1, 2, 255, 254]);

const INIT = '{"type":"system","subtype":"init","session_id":"s1"}';
/** The flags a run's staged inputs are passed with, as detection there finds them in the CLI's help. */
const STAGING_HELP = "  --add-dir <dirs>\n  --mcp-config <files>";

async function poll(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.each(KINDS)("a project on %s", (_name, kind) => {
  async function harness(
    steps: FakeStep[] = [{ readLine: true }, { writeFile: { path: "notes/hello.txt", content: "hello from the agent\n" } }, { outFile: TEXT }],
    options: { inputs?: ReturnType<typeof createRunInputs>; help?: string } = {},
  ) {
    const h = await runHarness({
      defs: [claude],
      shims: { claude: undefined },
      steps,
      timeouts: { cancelGraceMs: 300 },
      ...onMachine(kind),
      // In the daemon's environment: it reaches an agent here, and must not reach one elsewhere.
      env: { FAKE_ENV_DAEMON_ONLY: "daemon" },
      ...(options.inputs ? { inputs: options.inputs } : {}),
    });
    h.store.appConfig.update({ agentCliEnv: { claude: fakeCliEnvThere(h, { OD_SECRET_PROBE: "it's $(id) `x`\nline", ...(options.help ? { FAKE_CLI_HELP: options.help } : {}) }) } });
    return h;
  }

  test("a text run streams the answer from there; the agent ran in the project folder with the env a run gets there; nothing of it is left", async () => {
    await using h = await harness([{ readLine: true }, { outFile: TEXT }]);
    const { events, runId } = await h.run({ agentId: "claude", message: "hello there" });
    expect(endOf(events)).toMatchObject({ status: "succeeded" });
    expect(agentEvents(events).some((e) => e.type === "text_delta")).toBe(true);
    const start = h.ledger().find((l) => l.event === "start") as { cwd: string; env: Record<string, string> };
    expect(start.cwd).toBe(h.projectDir);
    expect(start.env.OD_RUN_ID).toBe(runId);
    expect(start.env.OD_SECRET_PROBE).toBe("it's $(id) `x`\nline");
    expect("FAKE_ENV_DAEMON_ONLY" in start.env).toBe(!kind.sendsOnlyRunEnv);
    expect((h.ledger().find((l) => l.event === "stdin-line") as { line: string }).line).toContain("hello there");
    expect(processesWithRunCookie(runId)).toEqual([]);
  }, 60_000);

  test("cancel ends the run's processes there, a TERM-ignoring grandchild in its own session included", async () => {
    await using h = await harness([{ readLine: true }, { orphan: "holdStdout" }, { ignoreTerm: true }, { out: INIT }, { hang: true }]);
    const created = await h.service.create({ projectId: h.projectId, agentId: "claude", message: "slow" });
    try {
      await poll(() => h.ledger().some((l) => l.event === "orphan"));
      // The cookie carriers are the agent and its grandchild where they run (a local ssh or docker client has none).
      await poll(() => processesWithRunCookie(created.runId).length >= 2);
      const there = processesWithRunCookie(created.runId);
      expect(await h.service.cancel(created.runId)).toBe(true);
      const events: RunEvent[] = [];
      for await (const event of h.service.events(created.runId)) events.push(event);
      expect(endOf(events)).toMatchObject({ status: "canceled" });
      expect(there.filter(isLivePid)).toEqual([]);
      expect(processesWithRunCookie(created.runId)).toEqual([]);
    } finally {
      killSurvivors(h.ledgerPath, [created.runId]);
    }
  }, 60_000);

  test("a run's skill and MCP config reach the agent there at the paths it is given, and nothing staged is left after it", async () => {
    using temp = tempDir("od-every-machine-inputs-");
    const HOSTILE = "it's $(touch pwned) `x` sk";
    writeSkill(join(temp.path, "skills"), HOSTILE, { files: { "refs/guide.md": "the guide's text" } });
    writeFileSync(join(temp.path, "mcp.json"), JSON.stringify({ servers: [{ name: "srv", type: "stdio", command: "mcp-srv", args: ["--it's"] }] }));
    const skills = new SkillLibrary({ bundled: () => join(temp.path, "bundled"), user: join(temp.path, "skills") });
    await using h = await harness([{ readLine: true }, { recordFiles: true }, { outFile: TEXT }], {
      inputs: createRunInputs({ skills, userMcpPath: join(temp.path, "mcp.json") }),
      help: STAGING_HELP,
    });
    const { events, runId } = await h.run({ agentId: "claude", message: "use it", skillIds: [skills.list()[0]!.id] });
    await h.service.wait(runId);
    expect(endOf(events)).toMatchObject({ status: "succeeded" });
    // Only the note of the skill in use: nothing was skipped or could not be staged.
    expect(events.flatMap((e) => (e.type === "diagnostic" ? [e.kind] : []))).toEqual(["skills"]);
    const argv = (h.ledger().find((l) => l.event === "start") as { argv: string[] }).argv;
    const skillsRoot = argv[argv.indexOf("--add-dir") + 1]!;
    const mcpConfig = argv[argv.indexOf("--mcp-config") + 1]!;
    const files = (h.ledger().find((l) => l.event === "files") as { files: Record<string, string> }).files;
    const guide = Object.keys(files).find((path) => path.startsWith(`${skillsRoot}/${HOSTILE}`) && path.endsWith("/refs/guide.md"));
    expect(guide && Buffer.from(files[guide]!, "base64").toString()).toBe("the guide's text");
    expect(JSON.parse(Buffer.from(files[mcpConfig]!, "base64").toString()).mcpServers).toEqual({ srv: { type: "stdio", command: "mcp-srv", args: ["--it's"], env: {} } });
    // The MCP config is the run's own, in a private folder that is gone with the run; the skills are a copy there
    // that is gone too, or (here) the skill folders themselves.
    expect(existsSync(dirname(mcpConfig))).toBe(false);
    expect(existsSync(skillsRoot)).toBe(!kind.copiesSkills);
    expect(existsSync(join(h.projectDir, "pwned"))).toBe(false);
  }, 60_000);

  test("a run that writes a file: its change and its files are recorded, and the files panel lists and reads it", async () => {
    await using h = await harness();
    const { runId, events } = await h.run({ agentId: "claude", message: "write a note" });
    expect(endOf(events)).toMatchObject({ status: "succeeded", files: ["notes/hello.txt"] });
    expect(h.store.runChanges.list(runId).changes).toMatchObject([{ path: "notes/hello.txt", kind: "created", additions: 1 }]);
    const projects = new ProjectService(h.store, join(h.projectDir, "..", "data"), kind.context() ?? { env: process.env });
    const project = projects.require(h.projectId);
    expect((await projects.files(project)).map((file) => [file.path, file.runId])).toContainEqual(["notes/hello.txt", runId]);
    expect(new TextDecoder().decode(await projects.readFile(project, "notes/hello.txt", 1024))).toBe("hello from the agent\n");
  }, 60_000);

  test("a def's own file for the run (pi's permission extension) is written in the run's private folder there, and gone after it", async () => {
    const withFile: RuntimeAgentDef = {
      ...claude,
      agentFile: (mode) => (mode === "bypass" ? undefined : { name: "od-permissions.mjs", content: "export default function () {}\n" }),
      buildArgs: (prompt, images, dirs, options, context) => [...claude.buildArgs(prompt, images, dirs, options, context), ...(context?.agentFilePath ? ["--extension", context.agentFilePath] : [])],
    };
    await using h = await runHarness({
      defs: [withFile],
      shims: { claude: undefined },
      steps: [{ readLine: true }, { recordFiles: true }, { outFile: TEXT }],
      ...onMachine(kind),
    });
    h.store.appConfig.update({ agentCliEnv: { claude: fakeCliEnvThere(h) } });
    const { events, runId } = await h.run({ agentId: "claude", message: "hi", permissionMode: "read-only" });
    await h.service.wait(runId);
    expect(endOf(events)).toMatchObject({ status: "succeeded" });
    const argv = (h.ledger().find((l) => l.event === "start") as { argv: string[] }).argv;
    const path = argv[argv.indexOf("--extension") + 1]!;
    expect(path.endsWith("/od-permissions.mjs")).toBe(true);
    const files = (h.ledger().find((l) => l.event === "files") as { files: Record<string, string> }).files;
    expect(Buffer.from(files[path]!, "base64").toString()).toBe("export default function () {}\n");
    expect(existsSync(path)).toBe(false);
  }, 60_000);

  test("the project's own MCP list is written and read there; its own skills are read there", async () => {
    using temp = tempDir("od-every-machine-");
    mkdirSync(join(temp.path, ".od", "skills", "demo"), { recursive: true });
    writeFileSync(join(temp.path, ".od", "skills", "demo", "SKILL.md"), "---\nname: demo\ndescription: A demo skill\n---\nDo the demo.\n");
    const place = placeOf(kind.url(temp.path), kind.context() ?? { env: process.env });
    await writeProjectMcpList(place, { servers: [{ name: "docs", type: "http", url: "http://127.0.0.1:9/mcp" }] });
    const list = await readProjectMcpList(place);
    expect(list).toMatchObject({ servers: [{ name: "docs", url: "http://127.0.0.1:9/mcp" }], diagnostics: [] });
    const skills = await projectSkillsOn(place);
    // This machine's skill library reads the folder itself; from elsewhere the skills come read there.
    if (typeof skills === "string") expect(skills).toBe(temp.path);
    else expect(skills.skills.map((skill) => skill.id)).toEqual(["demo"]);
  }, 60_000);

  test("an uploaded image reaches the agent there, byte for byte, at the path it is given", async () => {
    const qoder = getAgentDef("qoder") as RuntimeAgentDef;
    using uploads = tempDir("od-every-machine-uploads-");
    await using h = await runHarness({
      defs: [qoder],
      shims: { qodercli: undefined },
      steps: [{ readAll: true }, { recordFiles: true }, { outFile: join(import.meta.dir, "..", "fixtures", "qoder", "text.synthetic.jsonl") }],
      ...onMachine(kind),
      inputs: createRunInputs({ remoteUploadsDir: uploads.path }),
    });
    h.store.appConfig.update({ agentCliEnv: { qoder: fakeCliEnvThere(h) } });
    // Where the uploads route keeps a project's uploads: in the project here, on this machine for another.
    const root = uploadsRootOf(h.store.projects.get(h.projectId)!, uploads.path);
    mkdirSync(join(root, ".od", "uploads"), { recursive: true });
    writeFileSync(join(root, ".od", "uploads", "shot.png"), PNG);
    const { events } = await h.run({ agentId: "qoder", message: "look", attachments: [".od/uploads/shot.png"] });
    expect(endOf(events)).toMatchObject({ status: "succeeded" });
    const argv = (h.ledger().find((line) => line.event === "start") as { argv: string[] }).argv;
    const image = argv[argv.indexOf("--attachment") + 1]!;
    const files = (h.ledger().find((line) => line.event === "files") as { files: Record<string, string> }).files;
    expect(new Uint8Array(Buffer.from(files[image]!, "base64"))).toEqual(PNG);
  }, 60_000);

  test("detection there finds the agent with its version", async () => {
    await using h = await harness();
    const remote = kind.context();
    const catalog = new AgentCatalog({
      defs: [claude],
      deps: () => ({ env: { ...h.env, FAKE_CLI_VERSION: "7.7.7" }, configuredEnv: () => ({ ...fakeCliEnvThere(h), FAKE_CLI_VERSION: "7.7.7" }) }),
      ...(remote ? { remote } : {}),
    });
    const [found] = await catalog.detectOn(placeOf(kind.url("/"), remote ?? { env: process.env }).machine);
    expect(found).toMatchObject({ id: "claude", state: "available", version: "7.7.7" });
  }, 60_000);
});
