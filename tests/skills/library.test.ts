// The skill library: bundled < user < project shadowing, broken skills listed with diagnostics, import and delete.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SkillError, SkillLibrary, projectSkillsDir, skillIdFrom } from "../../server/skills/library.ts";
import { skillText, writeSkill } from "../support/skill-fixtures.ts";
import { tempDir } from "../support/temp.ts";

function setup() {
  const temp = tempDir("od-skills-lib-");
  const bundled = join(temp.path, "bundled");
  const user = join(temp.path, "user");
  const project = join(temp.path, "project");
  mkdirSync(project);
  return { temp, bundled, user, project, library: new SkillLibrary({ bundled: () => bundled, user }) };
}

describe("shadowing", () => {
  test("user shadows bundled, project shadows both; each source lists what it hides", () => {
    const s = setup();
    using _ = s.temp;
    writeSkill(s.bundled, "deck", { text: skillText("deck", "bundled body") });
    writeSkill(s.bundled, "audit");
    writeSkill(s.user, "deck", { text: skillText("deck", "user body") });
    writeSkill(projectSkillsDir(s.project), "deck", { text: skillText("deck", "project body") });

    const withoutProject = s.library.list();
    expect(withoutProject.map((k) => [k.id, k.source, k.shadows])).toEqual([
      ["audit", "bundled", []],
      ["deck", "user", ["bundled"]],
    ]);
    expect(withoutProject[1]!.body.trim()).toBe("user body");

    const withProject = s.library.list(s.project);
    expect(withProject.find((k) => k.id === "deck")).toMatchObject({ source: "project", shadows: ["bundled", "user"], body: "project body\n" });
  });

  test("a missing root is simply empty; dot-folders and folders without SKILL.md are ignored", () => {
    const s = setup();
    using _ = s.temp;
    mkdirSync(join(s.user, ".hidden"), { recursive: true });
    writeFileSync(join(s.user, ".hidden", "SKILL.md"), skillText("hidden"));
    mkdirSync(join(s.user, "no-skill-file"));
    expect(s.library.list()).toEqual([]);
  });
});

test("an invalid skill is listed with its diagnostic and marked unusable, never thrown", () => {
  const s = setup();
  using _ = s.temp;
  writeSkill(s.user, "broken", { text: `---\nname: broken\ndescription: "unterminated\n---\nbody` });
  writeSkill(s.user, "Weird Name");
  const [broken, weird] = s.library.list().sort((a, b) => a.id.localeCompare(b.id));
  expect(broken).toMatchObject({ id: "broken", usable: false, diagnostics: [{ severity: "error", path: "SKILL.md" }] });
  expect(weird).toMatchObject({ id: "weird-name", usable: true });
});

test("detail lists every file, following links, with / separators", () => {
  const s = setup();
  using _ = s.temp;
  writeSkill(s.user, "deck", { files: { "references/a.md": "A", "assets/t.html": "<p>" } });
  expect(s.library.detail("deck")!.files.map((f) => f.path)).toEqual(["SKILL.md", "assets/t.html", "references/a.md"]);
  expect(s.library.detail("nope")).toBeUndefined();
});

describe("import and delete", () => {
  test("import writes a valid user skill that shadows a bundled one; delete brings the bundled one back", () => {
    const s = setup();
    using _ = s.temp;
    writeSkill(s.bundled, "my-deck");
    const imported = s.library.importSkill({ name: "My Deck", description: "Mine", body: "# Mine\n\nSteps.", triggers: ["deck"] });
    expect(imported).toMatchObject({ id: "my-deck", source: "user", usable: true, diagnostics: [], shadows: [], description: "Mine", triggers: ["deck"] });
    expect(readFileSync(join(s.user, "my-deck", "SKILL.md"), "utf8")).toContain("# Mine");
    expect(s.library.get("my-deck")).toMatchObject({ source: "user", shadows: ["bundled"] });

    expect(() => s.library.importSkill({ name: "my deck", body: "again" })).toThrow(SkillError);
    expect(s.library.importSkill({ name: "my deck", body: "again", replace: true }).body.trim()).toBe("again");

    s.library.deleteUserSkill("my-deck");
    expect(existsSync(join(s.user, "my-deck"))).toBe(false);
    expect(s.library.get("my-deck")?.source).toBe("bundled");
  });

  test("deleting a bundled skill is refused as read-only; an unknown one is not found", () => {
    const s = setup();
    using _ = s.temp;
    writeSkill(s.bundled, "deck");
    expect(() => s.library.deleteUserSkill("deck")).toThrow(expect.objectContaining({ code: "SKILL_READ_ONLY" }));
    expect(() => s.library.deleteUserSkill("nope")).toThrow(expect.objectContaining({ code: "SKILL_NOT_FOUND" }));
    expect(existsSync(join(s.bundled, "deck", "SKILL.md"))).toBe(true);
  });
});

test("skillIdFrom makes folder-safe ids", () => {
  expect(skillIdFrom("Landing Page!")).toBe("landing-page");
  expect(skillIdFrom("../../etc")).toBe("etc");
  expect(skillIdFrom("***")).toBe("skill");
});
