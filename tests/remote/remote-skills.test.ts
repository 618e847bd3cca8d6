// Issue #21: a remote project's own skills are its `.od/skills/` where it lives. /api/skills?projectId= lists them
// (read there with one command, shadowing the user's and the bundled ones as a local project's do), and a run there
// can select one: it is copied into the run's staging folder there and the agent is pointed at that copy.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SkillDetail, SkillSummary } from "../../server/contracts/skills.ts";
import { skillRoutes } from "../../server/http/skills.ts";
import { createRunInputs } from "../../server/inputs/run-inputs.ts";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";
import { projectSkillsDir, SkillLibrary } from "../../server/skills/library.ts";
import { startTestApp } from "../support/app.ts";
import { endOf, fakeCliEnvThere, runHarness } from "../support/fake-agents.ts";
import { skillText, writeSkill } from "../support/skill-fixtures.ts";
import { startTestSshd, SSH_TEST_HOST, type TestSshd } from "../support/sshd.ts";
import { tempDir } from "../support/temp.ts";

let sshd: TestSshd;
beforeAll(async () => {
  sshd = await startTestSshd();
});
afterAll(() => sshd?.close());

const HOSTILE = "it's $(touch pwned) `x`; *\nsk";
const context = () => ({ env: { ...process.env, ...sshd.env }, controlDir: sshd.controlDir });

/** A project folder with its own skills (hostile, shadowing, linked, hidden, too large), and a user skill. */
function projectWithSkills(root: string): { projectDir: string; library: SkillLibrary } {
  const projectDir = join(root, "project");
  const own = projectSkillsDir(projectDir);
  writeSkill(own, HOSTILE, { text: skillText("hostile", "Read refs/guide.md."), files: { "refs/guide.md": "the project's guide", "refs/-rf": "x" } });
  writeSkill(own, "shared", { text: skillText("shared", "The project's version.") });
  writeSkill(own, ".hidden");
  writeSkill(own, "huge", { text: `${skillText("huge")}${"x".repeat(1024 * 1024)}` });
  writeSkill(join(root, "elsewhere"), "linked");
  symlinkSync(join(root, "elsewhere", "linked"), join(own, "linked"));
  symlinkSync("/etc/passwd", join(own, "shared", "passwd"));
  const user = join(root, "user");
  writeSkill(user, "shared", { text: skillText("shared", "The user's version.") });
  return { projectDir, library: new SkillLibrary({ bundled: () => undefined, user }) };
}

describe("skills of a project on another machine", () => {
  test("GET /api/skills?projectId= lists its own skills, read there; a hostile folder name is plain data", async () => {
    using temp = tempDir("od-remote-skills-");
    const { projectDir, library } = projectWithSkills(temp.path);
    await using app = await startTestApp({ modules: [skillRoutes(library, () => `ssh://${SSH_TEST_HOST}${projectDir}`, context())] });
    const res = await app.call("/api/skills?projectId=prj_1");
    expect(res.status).toBe(200);
    const skills = ((await res.json()) as { skills: SkillSummary[] }).skills.map((s) => SkillSummary.parse(s));
    expect(skills.map((s) => [s.id, s.source, s.usable, s.shadows])).toEqual([
      ["huge", "project", false, []],
      [expect.stringMatching(/^it-s-touch-pwned-x-sk/), "project", true, []],
      ["shared", "project", true, ["user"]],
    ]);
    const hostile = skills[1]!;
    expect(hostile.dir).toBe(`${projectSkillsDir(projectDir)}/${HOSTILE}`);
    const detail = await app.call(`/api/skills/${encodeURIComponent(hostile.id)}?projectId=prj_1`);
    const skill = SkillDetail.parse(((await detail.json()) as { skill: unknown }).skill);
    expect(skill.body).toContain("Read refs/guide.md.");
    expect(skill.files).toEqual([
      { path: "SKILL.md", size: expect.any(Number) },
      { path: "refs/-rf", size: 1 },
      { path: "refs/guide.md", size: "the project's guide".length },
    ]);
    const shared = await app.call("/api/skills/shared?projectId=prj_1");
    expect(((await shared.json()) as { skill: { body: string; files: unknown[] } }).skill).toMatchObject({ body: expect.stringContaining("The project's version."), files: [{ path: "SKILL.md", size: expect.any(Number) }] });
    expect(existsSync(join(projectDir, "pwned"))).toBe(false);
  });

  test("a project without a skills folder has none of its own; an unreachable host is REMOTE_UNREACHABLE", async () => {
    using temp = tempDir("od-remote-skills-");
    const library = new SkillLibrary({ bundled: () => undefined, user: join(temp.path, "user") });
    writeSkill(join(temp.path, "user"), "mine");
    await using app = await startTestApp({
      modules: [skillRoutes(library, (id) => (id === "prj_gone" ? "ssh://127.0.0.1:1/srv/app" : `ssh://${SSH_TEST_HOST}${temp.path}`), context())],
    });
    const res = await app.call("/api/skills?projectId=prj_1");
    expect(((await res.json()) as { skills: SkillSummary[] }).skills.map((s) => s.id)).toEqual(["mine"]);
    const gone = await app.call("/api/skills?projectId=prj_gone");
    expect(gone.status).toBe(502);
    expect(((await gone.json()) as { error: { code: string } }).error.code).toBe("REMOTE_UNREACHABLE");
  });

  test("a run selecting the project's own skill gets it copied into its staging folder there, and pointed at it", async () => {
    using temp = tempDir("od-remote-skills-");
    const { projectDir, library } = projectWithSkills(temp.path);
    const claude = getAgentDef("claude") as RuntimeAgentDef;
    await using h = await runHarness({
      defs: [claude],
      shims: { claude: undefined },
      steps: [{ readLine: true }, { recordFiles: true }, { outFile: join(import.meta.dir, "..", "fixtures", "claude", "text.jsonl") }],
      projectDir,
      projectPath: (dir) => `ssh://${SSH_TEST_HOST}${dir}`,
      remote: context(),
      inputs: createRunInputs({ skills: library }),
    });
    h.store.appConfig.update({
      agentCliEnv: { claude: fakeCliEnvThere(h, { FAKE_CLI_HELP: "  --add-dir <dirs>" }) },
    });
    const { runId, events } = await h.run({ agentId: "claude", message: "use them", skillIds: ["shared", "it-s-touch-pwned-x-sk"] });
    await h.service.wait(runId);
    expect(endOf(events).status).toBe("succeeded");
    expect(events.filter((e) => e.type === "diagnostic" && e.kind.startsWith("remote")).map((e) => (e as { message: string }).message)).toEqual([]);
    const argv = (h.ledger().find((l) => l.event === "start") as { argv: string[] }).argv;
    const skillsRoot = argv[argv.indexOf("--add-dir") + 1]!;
    expect(skillsRoot).toMatch(new RegExp(`/od-stage-${runId}\\.[^/]+/skills$`));
    const files = (h.ledger().find((l) => l.event === "files") as { files: Record<string, string> }).files;
    const guide = Object.keys(files).find((path) => path.endsWith("/refs/guide.md"))!;
    expect(guide.startsWith(`${skillsRoot}/${HOSTILE}-`)).toBe(true);
    expect(Buffer.from(files[guide]!, "base64").toString()).toBe("the project's guide");
    // The project's version of `shared`, without the link it holds.
    const shared = Object.keys(files).filter((path) => path.startsWith(`${skillsRoot}/shared-`));
    expect(shared.map((path) => path.slice(path.lastIndexOf("/") + 1))).toEqual(["SKILL.md"]);
    expect(Buffer.from(files[shared[0]!]!, "base64").toString()).toContain("The project's version.");
    const line = (h.ledger().find((l) => l.event === "stdin-line") as { line: string }).line;
    const prompt = JSON.parse(line).message.content.map((c: { text: string }) => c.text).join("");
    expect(prompt).toContain(`copied to \`${guide.slice(0, -"refs/guide.md".length)}\``);
    expect(prompt).toContain("The project's version.");
    expect(prompt).not.toContain("The user's version.");
    expect(existsSync(skillsRoot)).toBe(false);
    expect(readdirSync(join(projectDir, ".od", "skills")).sort()).toEqual([".hidden", HOSTILE, "huge", "linked", "shared"].sort());
    expect(existsSync(join(projectDir, "pwned"))).toBe(false);
  });
});
