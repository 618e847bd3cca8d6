// /api/skills: list (with project skills on request), detail with files, import, delete (user only), diagnostics.
import { expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { SkillDetail, SkillSummary } from "../../server/contracts/skills.ts";
import { HttpError } from "../../server/http/errors.ts";
import { skillRoutes } from "../../server/http/skills.ts";
import { SkillLibrary, projectSkillsDir } from "../../server/skills/library.ts";
import { startTestApp } from "../support/app.ts";
import { skillText, writeSkill } from "../support/skill-fixtures.ts";
import { tempDir } from "../support/temp.ts";

async function setup() {
  const temp = tempDir("od-http-skills-");
  const bundled = join(temp.path, "bundled");
  const user = join(temp.path, "user");
  const projectDir = join(temp.path, "project");
  mkdirSync(projectDir);
  writeSkill(bundled, "deck", { files: { "references/a.md": "A" } });
  writeSkill(bundled, "broken", { text: "---\nname: [oops\n---\nbody" });
  writeSkill(projectSkillsDir(projectDir), "local", { text: skillText("local") });
  const library = new SkillLibrary({ bundled: () => bundled, user });
  const projects = new Map([["prj_1", projectDir]]);
  const projectDirOf = (id: string) => {
    const dir = projects.get(id);
    if (!dir) throw new HttpError(404, "PROJECT_NOT_FOUND", `no project ${id}`);
    return dir;
  };
  const app = await startTestApp({ modules: [skillRoutes(library, projectDirOf, { env: process.env })] });
  return {
    app,
    user,
    async [Symbol.asyncDispose]() {
      await app[Symbol.asyncDispose]();
      temp[Symbol.dispose]();
    },
  };
}

test("GET /api/skills lists bundled and user skills; ?projectId adds the project's; broken ones carry diagnostics", async () => {
  await using s = await setup();
  const body = (await (await s.app.call("/api/skills")).json()) as { skills: SkillSummary[] };
  for (const skill of body.skills) expect(SkillSummary.strict().safeParse(skill).success).toBe(true);
  expect(body.skills.map((k) => [k.id, k.usable])).toEqual([["broken", false], ["deck", true]]);
  expect(body.skills[0]!.diagnostics[0]!.message).toContain("not valid YAML");

  const withProject = (await (await s.app.call("/api/skills?projectId=prj_1")).json()) as { skills: SkillSummary[] };
  expect(withProject.skills.find((k) => k.id === "local")?.source).toBe("project");
  expect((await s.app.call("/api/skills?projectId=nope")).status).toBe(404);
});

test("GET /api/skills/:id returns the body and the file list; unknown → 404", async () => {
  await using s = await setup();
  const response = await s.app.call("/api/skills/deck");
  const { skill } = (await response.json()) as { skill: SkillDetail };
  expect(SkillDetail.safeParse(skill).success).toBe(true);
  expect(skill.files.map((f) => f.path)).toEqual(["SKILL.md", "references/a.md"]);
  expect(skill.body).toContain("Instructions of deck.");
  const missing = await s.app.call("/api/skills/ghost");
  expect(missing.status).toBe(404);
  expect(await missing.json()).toEqual({ error: { code: "SKILL_NOT_FOUND", message: "no skill 'ghost'" } });
});

test("POST /api/skills/import writes a user skill (201), 409 on a second import, 400 naming the bad field", async () => {
  await using s = await setup();
  const created = await s.app.json("POST", "/api/skills/import", { name: "Brand Voice", description: "Write like us", body: "# Voice\n\nShort sentences.", triggers: ["copy"] });
  expect(created.status).toBe(201);
  const { skill } = (await created.json()) as { skill: SkillSummary };
  expect(skill).toMatchObject({ id: "brand-voice", source: "user", usable: true, triggers: ["copy"], dir: join(s.user, "brand-voice") });
  expect((await s.app.json("POST", "/api/skills/import", { name: "brand voice", body: "x" })).status).toBe(409);
  const bad = await s.app.json("POST", "/api/skills/import", { name: "x", body: "" });
  expect(bad.status).toBe(400);
  expect(((await bad.json()) as { error: { issues: { path: string[] }[] } }).error.issues[0]!.path).toEqual(["body"]);
});

test("DELETE /api/skills/:id removes a user skill; a bundled one is a typed 403", async () => {
  await using s = await setup();
  await s.app.json("POST", "/api/skills/import", { name: "mine", body: "x" });
  expect((await s.app.json("DELETE", "/api/skills/mine", {})).status).toBe(200);
  expect((await s.app.call("/api/skills/mine")).status).toBe(404);
  const forbidden = await s.app.json("DELETE", "/api/skills/deck", {});
  expect(forbidden.status).toBe(403);
  expect(((await forbidden.json()) as { error: { code: string } }).error.code).toBe("SKILL_READ_ONLY");
});
