// Bundled skills: every one is valid and previewable, the embed index is current, and the binary's embedded files
// become a real folder once.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BUNDLED_DIR, bundledFiles, renderBundledIndex, INDEX_PATH } from "../../server/skills/bundled-index-gen.ts";
import { BUNDLED_SKILL_FILES } from "../../server/skills/bundled-index.ts";
import { bundledSkillsResolver, bundledSkillsVersion, materializeBundledSkills, sourceBundledSkillsDir } from "../../server/skills/bundled-root.ts";
import { referencedSideFiles } from "../../server/skills/compose.ts";
import { SkillLibrary, listFiles } from "../../server/skills/library.ts";
import { tempDir } from "../support/temp.ts";

describe("the shipped skills", () => {
  const library = new SkillLibrary({ bundled: () => sourceBundledSkillsDir(), user: "/nonexistent-od-user-skills" });
  const skills = library.list();

  test("at least the three we promise, all valid, with html or md previews", () => {
    expect(skills.map((s) => s.id)).toEqual(expect.arrayContaining(["html-prototype", "html-slides", "design-system-audit"]));
    for (const skill of skills) {
      expect({ id: skill.id, diagnostics: skill.diagnostics }).toEqual({ id: skill.id, diagnostics: [] });
      expect(["html", "md"]).toContain(skill.previewType);
      expect(skill.examplePrompt?.length).toBeGreaterThan(10);
      expect(skill.body.length).toBeGreaterThan(1000);
    }
  });

  test("every side file is referenced by its skill's body, and every referenced file exists", () => {
    for (const skill of skills) {
      const side = listFiles(skill.dir).map((f) => f.path).filter((p) => p !== "SKILL.md");
      expect(referencedSideFiles(skill.body, side)).toEqual(side);
      for (const ref of skill.body.match(/references\/[\w.-]+/g) ?? []) expect(existsSync(join(skill.dir, ref))).toBe(true);
    }
  });
});

describe("embedding", () => {
  test("bundled-index.ts is current (regenerate with: bun server/skills/bundled-index-gen.ts)", () => {
    expect(readFileSync(INDEX_PATH, "utf8")).toBe(renderBundledIndex(bundledFiles()));
    expect(Object.keys(BUNDLED_SKILL_FILES.files)).toEqual(bundledFiles());
    // The version is the hash of the files' content, worked out when the index was generated.
    expect(BUNDLED_SKILL_FILES.version).toBe(bundledSkillsVersion(bundledFiles().map((file) => [file, readFileSync(join(BUNDLED_DIR, file))] as const)));
  });

  test("embedded files are extracted once into a content-addressed folder that lists the same skills", () => {
    using temp = tempDir("od-bundled-");
    const dir = materializeBundledSkills(BUNDLED_SKILL_FILES, temp.path);
    expect(materializeBundledSkills(BUNDLED_SKILL_FILES, temp.path)).toBe(dir);
    expect(readdirSync(temp.path)).toEqual([BUNDLED_SKILL_FILES.version]);
    const fromEmbedded = new SkillLibrary({ bundled: () => dir, user: join(temp.path, "user") }).list();
    const fromSource = new SkillLibrary({ bundled: () => sourceBundledSkillsDir(), user: join(temp.path, "user") }).list();
    expect(fromEmbedded.map((s) => [s.id, s.body])).toEqual(fromSource.map((s) => [s.id, s.body]));
  });

  test("the resolver prefers embedded files and falls back to the source folder", () => {
    using temp = tempDir("od-bundled-");
    expect(bundledSkillsResolver({ cacheRoot: temp.path })()).toBe(sourceBundledSkillsDir());
    expect(bundledSkillsResolver({ embedded: BUNDLED_SKILL_FILES, cacheRoot: temp.path })()).toStartWith(temp.path);
  });
});
