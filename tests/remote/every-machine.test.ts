// Issue #36: a project behaves the same on every kind of machine. One suite, run for a project on this machine, on
// the test sshd and in a container of the test Docker engine: a run that writes a file records it (its change, its
// files, the files panel lists and reads it), a project's own MCP list and skills are read there, an uploaded image
// reaches the agent there, and detection finds the agent there. The container shares this machine's /usr and temp dir, so the fake CLI runs in all three.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRunInputs } from "../../server/inputs/run-inputs.ts";
import { uploadsRootOf } from "../../server/inputs/upload-root.ts";
import { placeOf } from "../../server/machines/machine-of.ts";
import type { RemoteContext } from "../../server/machines/remote-exec.ts";
import { readProjectMcpList, writeProjectMcpList } from "../../server/mcp/project-mcp-file.ts";
import { ProjectService } from "../../server/projects/project-service.ts";
import { AgentCatalog } from "../../server/runtimes/catalog.ts";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";
import { projectSkillsOn } from "../../server/skills/project-skills-on.ts";
import { endOf, fakeCliEnvThere, runHarness } from "../support/fake-agents.ts";
import { SSH_TEST_HOST } from "../support/sshd.ts";
import { useTestMachines } from "../support/test-machines.ts";
import { tempDir } from "../support/temp.ts";

const engines = useTestMachines();

const claude = getAgentDef("claude") as RuntimeAgentDef;
const TEXT = join(import.meta.dir, "..", "fixtures", "claude", "text.jsonl");
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 1, 2, 255, 254]);

type Kind = { url: (dir: string) => string; context: () => RemoteContext | undefined };
const KINDS: [string, Kind][] = [
  ["this machine", { url: (dir) => dir, context: () => undefined }],
  ["an ssh host", { url: (dir) => `ssh://${SSH_TEST_HOST}${dir}`, context: () => ({ env: { ...process.env, ...engines.sshd.env }, controlDir: engines.sshd.controlDir }) }],
  ["a container", { url: (dir) => `docker://${engines.docker.container}${dir}`, context: () => ({ env: { ...process.env, ...engines.docker.env } }) }],
];

describe.each(KINDS)("a project on %s", (_name, kind) => {
  async function harness() {
    const remote = kind.context();
    const h = await runHarness({
      defs: [claude],
      shims: { claude: undefined },
      steps: [{ readLine: true }, { writeFile: { path: "notes/hello.txt", content: "hello from the agent\n" } }, { outFile: TEXT }],
      projectPath: kind.url,
      ...(remote ? { remote } : {}),
    });
    h.store.appConfig.update({ agentCliEnv: { claude: fakeCliEnvThere(h) } });
    return h;
  }

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
    const remote = kind.context();
    await using h = await runHarness({
      defs: [qoder],
      shims: { qodercli: undefined },
      steps: [{ readAll: true }, { recordFiles: true }, { outFile: join(import.meta.dir, "..", "fixtures", "qoder", "text.synthetic.jsonl") }],
      projectPath: kind.url,
      inputs: createRunInputs({ remoteUploadsDir: uploads.path }),
      ...(remote ? { remote } : {}),
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
