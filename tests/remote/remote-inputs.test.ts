// Issue #21: a run of an ssh:// project gets its skills, MCP config, images and prompt file staged on the remote
// side, in a private folder of the run's that is gone when the run ends (cancel and od's recovery included). The
// "remote" side is this machine's own sshd, so the fake CLIs record there what they found at the paths they got.
import { readMcpFile } from "../../server/mcp/config-files.ts";
import { projectServersHash } from "../../server/mcp/project-consent.ts";
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { RunEvent } from "../../server/contracts/runs.ts";
import { createRunInputs } from "../../server/inputs/run-inputs.ts";
import { remoteUploadsRoot } from "../../server/inputs/upload-root.ts";
import { parseLocation, type SshLocation } from "../../server/machines/machine-url.ts";
import { runRemoteScript } from "../../server/machines/remote-exec.ts";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";
import { SkillLibrary } from "../../server/skills/library.ts";
import { agentEvents, endOf, fakeCliEnvThere, runHarness, type FakeStep, type RunHarness } from "../support/fake-agents.ts";
import { skillText, writeSkill } from "../support/skill-fixtures.ts";
import { startTestSshd, SSH_TEST_HOST, type TestSshd } from "../support/sshd.ts";
import { tempDir } from "../support/temp.ts";

// Each test starts and ends runs over a real ssh connection (a login, the run, its sweep there): seconds apiece on an
// idle machine, and several times that on a loaded 2-core one, where bun's 20 s default failed them at random.
setDefaultTimeout(60_000);

let sshd: TestSshd;
beforeAll(async () => {
  sshd = await startTestSshd();
});
afterAll(() => sshd?.close());

const INIT = '{"type":"system","subtype":"init","session_id":"s1"}';
const CLAUDE_TEXT = join(import.meta.dir, "..", "fixtures", "claude", "text.jsonl");
const RESULT = JSON.stringify({ type: "result", subtype: "success", is_error: false, result: "ok", session_id: "s1" });
const HOSTILE = "it's $(touch pwned) `touch pwned2`; *";
/** The smallest PNG header od's sniffer accepts, then bytes that are not text. */
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 1, 2, 255, 254]);

type Staged = RunHarness & { skillId: string; skillsDir: string; uploads: string };

/**
 * A harness for `defs` on `ssh://od-test-host/<project>`, with a user skill (hostile folder name), user and project
 * MCP lists; `server` is the sshd that answers there (default the shared one).
 */
async function stagedHarness(defs: RuntimeAgentDef[], steps: FakeStep[], server: TestSshd = sshd): Promise<Staged> {
  const temp = tempDir("od-remote-inputs-");
  const skillsDir = join(temp.path, "skills");
  writeSkill(skillsDir, HOSTILE, { text: skillText("hostile", "Follow refs/guide.md closely."), files: { "refs/guide.md": "the guide's text" } });
  const userMcpPath = join(temp.path, "mcp.json");
  writeFileSync(userMcpPath, JSON.stringify({ servers: [{ name: "user-srv", type: "stdio", command: "user-mcp", args: ["--it's"] }] }));
  const skills = new SkillLibrary({ bundled: () => join(temp.path, "bundled"), user: skillsDir });
  const uploads = join(temp.path, "uploads");
  const h = await runHarness({
    defs,
    shims: Object.fromEntries(defs.map((def) => [def.bin, undefined])),
    steps,
    timeouts: { cancelGraceMs: 300 },
    projectPath: (dir) => `ssh://${SSH_TEST_HOST}${dir}`,
    remote: { env: { ...process.env, ...server.env }, controlDir: server.controlDir },
    inputs: createRunInputs({ skills, userMcpPath, remoteUploadsDir: uploads }),
  });
  mkdirSync(join(h.projectDir, ".od"));
  writeFileSync(join(h.projectDir, ".od", "mcp-config.json"), JSON.stringify({ servers: [{ name: "proj-srv", type: "http", url: "http://127.0.0.1:9/mcp" }] }));
  // The person approved the project's own server list (the page's consent), as it reads there.
  h.store.mcpConsents.grant(h.projectId, projectServersHash(readMcpFile(join(h.projectDir, ".od", "mcp-config.json")).servers), Date.now());
  // The flags the staged inputs are passed with are the ones detection finds in the CLI's help there.
  const agentEnv = fakeCliEnvThere(h, { FAKE_CLI_HELP: "  --add-dir <dirs>\n  --mcp-config <files>" });
  h.store.appConfig.update({ agentCliEnv: Object.fromEntries(defs.map((def) => [def.id, agentEnv])) });
  const close = h.close;
  const closeAll = async () => {
    await close();
    temp[Symbol.dispose]();
  };
  return { ...h, close: closeAll, [Symbol.asyncDispose]: closeAll, skillId: skills.list()[0]!.id, skillsDir, uploads: remoteUploadsRoot(uploads, h.projectId) };
}

/** What the fake recorded at the paths of its argv, decoded. */
function recordedFiles(h: RunHarness): Record<string, Buffer> {
  const record = h.ledger().find((l) => l.event === "files") as { files: Record<string, string> } | undefined;
  if (!record) throw new Error("the fake recorded no files");
  return Object.fromEntries(Object.entries(record.files).map(([path, base64]) => [path, Buffer.from(base64, "base64")]));
}

function argAfter(h: RunHarness, flag: string): string {
  const argv = (h.ledger().find((l) => l.event === "start") as { argv: string[] }).argv;
  const index = argv.indexOf(flag);
  if (index < 0) throw new Error(`no ${flag} in ${JSON.stringify(argv)}`);
  return argv[index + 1]!;
}

/** The run's staging folder, from a path inside it. */
function stagingDirOf(path: string, runId: string): string {
  const match = new RegExp(`^(/.*/od-stage-${runId}\\.[^/]+)/`).exec(path);
  if (!match) throw new Error(`${path} is not in a staging folder of ${runId}`);
  return match[1]!;
}

function diagnosticsOf(events: RunEvent[]): string[] {
  return events.flatMap((e) => (e.type === "diagnostic" ? [`${e.kind}: ${e.message}`] : []));
}

async function poll(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Nothing ran in the project, this machine's home or the home of the sessions there. */
function noInjection(h: RunHarness): void {
  for (const dir of [h.projectDir, homedir(), sshd.home]) for (const name of ["pwned", "pwned2"]) expect(existsSync(join(dir, name))).toBe(false);
}

const claude = getAgentDef("claude") as RuntimeAgentDef;

describe("inputs of a run on an ssh:// project", () => {
  test("the skill folder and the MCP config are staged there, at the paths the agent gets; the folder is gone after the run", async () => {
    await using h = await stagedHarness([claude], [{ readLine: true }, { recordFiles: true }, { outFile: CLAUDE_TEXT }]);
    const { runId, events } = await h.run({ agentId: "claude", message: "use the skill", skillIds: [h.skillId] });
    await h.service.wait(runId);
    expect(endOf(events)).toMatchObject({ status: "succeeded" });
    expect(diagnosticsOf(events).filter((d) => d.startsWith("remote_inputs") || d.startsWith("mcp_"))).toEqual([]);

    const skillsRoot = argAfter(h, "--add-dir");
    const mcpConfig = argAfter(h, "--mcp-config");
    const stage = stagingDirOf(mcpConfig, runId);
    expect(skillsRoot).toBe(`${stage}/skills`);
    const files = recordedFiles(h);
    const guide = Object.keys(files).find((path) => path.endsWith("/refs/guide.md"))!;
    expect(guide.startsWith(`${skillsRoot}/${HOSTILE}-`)).toBe(true);
    expect(files[guide]!.toString()).toBe("the guide's text");
    expect(files[guide.replace("refs/guide.md", "SKILL.md")]!.toString()).toContain("Follow refs/guide.md closely.");
    expect(JSON.parse(files[mcpConfig]!.toString()).mcpServers).toEqual({
      "user-srv": { type: "stdio", command: "user-mcp", args: ["--it's"], env: {} },
      "proj-srv": { type: "http", url: "http://127.0.0.1:9/mcp" },
    });

    // The prompt points at the staged copy there, never at the source folder on this machine.
    const line = (h.ledger().find((l) => l.event === "stdin-line") as { line: string }).line;
    const prompt = JSON.parse(line).message.content.map((c: { text: string }) => c.text).join("");
    expect(prompt).toContain(`copied to \`${guide.slice(0, -"refs/guide.md".length)}\``);
    expect(prompt).not.toContain(h.skillsDir);

    expect(existsSync(stage)).toBe(false);
    expect(readdirSync(h.projectDir)).toEqual([".od"]);
    noInjection(h);
  });

  test("images are copied over and the agent gets their paths there (hostile names stay plain data)", async () => {
    const qoder = getAgentDef("qoder") as RuntimeAgentDef;
    await using h = await stagedHarness([qoder], [{ readLine: true }, { recordFiles: true }, { out: RESULT }]);
    const name = `${HOSTILE}.png`;
    mkdirSync(join(h.uploads, ".od", "uploads"), { recursive: true });
    writeFileSync(join(h.uploads, ".od", "uploads", name), PNG);
    const { runId, events } = await h.run({ agentId: "qoder", message: "look", attachments: [`.od/uploads/${name}`, ".od/uploads/missing.png"] });
    await h.service.wait(runId);
    expect(diagnosticsOf(events)).toContain("attachment_skipped: attachment .od/uploads/missing.png skipped: not a file inside the project");
    const image = argAfter(h, "--attachment");
    const stage = stagingDirOf(image, runId);
    expect(image).toBe(`${stage}/images/1-${name}`);
    expect(new Uint8Array(recordedFiles(h)[image]!)).toEqual(PNG);
    expect(existsSync(stage)).toBe(false);
    noInjection(h);
  });

  test("a def that reads its prompt from a file gets it written there, then the run proceeds", async () => {
    const atomcode = getAgentDef("atomcode") as RuntimeAgentDef;
    await using h = await stagedHarness([atomcode], [{ recordFiles: true }, { out: "the plain answer" }]);
    const { runId, events } = await h.run({ agentId: "atomcode", message: `prompt by file: ${HOSTILE}` });
    await h.service.wait(runId);
    expect(endOf(events).status).toBe("succeeded");
    expect(agentEvents(events).some((e) => e.type === "text_delta" && e.delta.includes("the plain answer"))).toBe(true);
    const promptFile = argAfter(h, "--prompt-file");
    const stage = stagingDirOf(promptFile, runId);
    expect(recordedFiles(h)[promptFile]!.toString()).toContain(`prompt by file: ${HOSTILE}`);
    expect(existsSync(stage)).toBe(false);
    noInjection(h);
  });

  test("MCP servers of an env-config agent travel in its environment there", async () => {
    const opencode = getAgentDef("opencode") as RuntimeAgentDef;
    await using h = await stagedHarness([opencode], [{ readAll: true }]);
    const { runId } = await h.run({ agentId: "opencode", message: "hi" });
    await h.service.wait(runId);
    const env = (h.ledger().find((l) => l.event === "start") as { env: Record<string, string> }).env;
    expect(Object.keys(JSON.parse(env.OPENCODE_CONFIG_CONTENT!).mcp).sort()).toEqual(["proj-srv", "user-srv"]);
  });

  test("cancel removes the staging folder once the remote agent is gone", async () => {
    await using h = await stagedHarness([claude], [{ readLine: true }, { recordFiles: true }, { out: INIT }, { hang: true }]);
    const created = await h.service.create({ projectId: h.projectId, agentId: "claude", message: "slow", skillIds: [h.skillId] });
    await poll(() => h.ledger().some((l) => l.event === "files"));
    const stage = stagingDirOf(argAfter(h, "--add-dir") + "/", created.runId);
    expect(existsSync(stage)).toBe(true);
    expect(statSync(stage).mode & 0o777).toBe(0o700);
    expect(await h.service.cancel(created.runId)).toBe(true);
    expect(h.service.get(created.runId)!.status).toBe("canceled");
    expect(existsSync(stage)).toBe(false);
  });

  test("a connection dropped mid-run still ends with the staging folder removed", async () => {
    await using h = await stagedHarness([claude], [{ readLine: true }, { recordFiles: true }, { out: INIT }, { hang: true }]);
    const created = await h.service.create({ projectId: h.projectId, agentId: "claude", message: "slow", skillIds: [h.skillId] });
    await poll(() => h.ledger().some((l) => l.event === "files"));
    const stage = stagingDirOf(argAfter(h, "--add-dir") + "/", created.runId);
    process.kill(h.service.get(created.runId)!.pid!, "SIGKILL"); // the local ssh client, as a dropped network ends it
    await h.service.wait(created.runId);
    expect(h.service.get(created.runId)).toMatchObject({ status: "failed", failureDetail: "remote_connection_lost" });
    expect(existsSync(stage)).toBe(false);
  });

  test("staging that cannot reach the host is a diagnostic; a prompt-file agent then fails typed, not with a crash", async () => {
    const atomcode = getAgentDef("atomcode") as RuntimeAgentDef;
    // A host of its own, gone between the detection a first run kept and the next run's staging.
    await using server = await startTestSshd();
    await using h = await stagedHarness([atomcode], [{ recordFiles: true }, { out: "the plain answer" }], server);
    expect(endOf((await h.run({ agentId: "atomcode", message: "hi" })).events).status).toBe("succeeded");
    const before = h.ledger().length;
    await server.close();
    const { events } = await h.run({ agentId: "atomcode", message: "hi", skillIds: [h.skillId] });
    expect(diagnosticsOf(events).filter((d) => d.startsWith("remote_inputs"))).toEqual([
      expect.stringMatching(/^remote_inputs: cannot reach od-test-host: .*; the run goes on without the project's own skills$/),
      expect.stringMatching(/^remote_inputs: could not make a staging folder on od-test-host: .*; the run goes on without skills$/),
    ]);
    const error = events.find((e) => e.type === "error");
    expect(error).toMatchObject({ error: { code: "REMOTE_UNSUPPORTED" } });
    expect(endOf(events)).toMatchObject({ status: "failed", failureCategory: "config" });
    expect(h.ledger()).toHaveLength(before);
  });

  test("a staging folder left by a run od never finished is removed when od recovers that run", async () => {
    await using h = await stagedHarness([claude], []);
    const location = parseLocation(`ssh://${SSH_TEST_HOST}/`) as SshLocation;
    const context = { env: { ...process.env, ...sshd.env }, controlDir: sshd.controlDir };
    const made = await runRemoteScript(location, 'mktemp -d "${TMPDIR:-/tmp}/od-stage-$1.XXXXXXXX"', ["run_left_behind"], context, { timeoutMs: 30_000 });
    const stage = made.kind === "exited" ? new TextDecoder().decode(made.stdout).trim() : "";
    expect(existsSync(stage)).toBe(true);
    const conversationId = h.store.conversations.create(h.projectId, "left").id;
    h.store.runs.create({ id: "run_left_behind", projectId: h.projectId, conversationId, agentId: "claude", model: null, reasoning: null });
    h.store.runs.markRunning("run_left_behind", null);
    expect(h.service.recoverInterruptedRuns()).toBe(1);
    await poll(() => !existsSync(stage));
  });
});
