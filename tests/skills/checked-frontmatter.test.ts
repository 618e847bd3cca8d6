/** SKILL.md frontmatters checked once are kept in the data dir by their exact text, and trusted only as kept. */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "bun:test";
import { SkillFrontmatter } from "../../server/contracts/skills.ts";
import { z } from "../../server/contracts/zod.ts";
import { textChecksum } from "../../server/platform/text-checksum.ts";
import { sourceBundledSkillsDir } from "../../server/skills/bundled-root.ts";
import { CheckedFrontmatters, FRONTMATTER_CHECK_FORMAT } from "../../server/skills/checked-frontmatter.ts";
import { SkillLibrary } from "../../server/skills/library.ts";
import { splitFrontmatter } from "../../server/skills/skill-file.ts";
import { tempDir } from "../support/temp.ts";

const yamlVersion = (JSON.parse(readFileSync(join(import.meta.dir, "..", "..", "node_modules", "yaml", "package.json"), "utf8")) as { version: string }).version;

test("FRONTMATTER_CHECK_FORMAT names the schema and yaml package it checked with: a change fails here until it is bumped", () => {
  // On a change to SkillFrontmatter, the yaml package, or how skill-file.ts / frontmatter-yaml.ts parse and check a
  // frontmatter: bump FRONTMATTER_CHECK_FORMAT (server/skills/checked-frontmatter.ts), then set the values below.
  const schema = createHash("sha256").update(JSON.stringify(z.toJSONSchema(SkillFrontmatter, { unrepresentable: "any", io: "input" }))).digest("hex").slice(0, 16);
  expect({ format: FRONTMATTER_CHECK_FORMAT, schema, yaml: yamlVersion }).toEqual({ format: 1, schema: "3f50489674719389", yaml: "2.9.1" });
});

const librariesOver = (file: string, user: string) => ({
  remembering: () => new SkillLibrary({ bundled: () => sourceBundledSkillsDir(), user, checked: new CheckedFrontmatters(file) }),
  plain: new SkillLibrary({ bundled: () => sourceBundledSkillsDir(), user }),
});

test("a listing keeps what it checked, and lists the same skills from it as it does without", () => {
  using dir = tempDir();
  const file = join(dir.path, "skills-cache.json");
  const { remembering, plain } = librariesOver(file, join(dir.path, "user"));
  const first = remembering().list();
  expect(first).toEqual(plain.list());
  const kept = JSON.parse(readFileSync(file, "utf8")) as { format: number; entries: unknown[] };
  expect(kept.format).toBe(FRONTMATTER_CHECK_FORMAT);
  expect(kept.entries.length).toBe(first.length);
  expect(remembering().list()).toEqual(first);
});

test("a kept check is used as kept; one edited by hand, or of another format, is not", () => {
  using dir = tempDir();
  const file = join(dir.path, "skills-cache.json");
  const { remembering, plain } = librariesOver(file, join(dir.path, "user"));
  const slides = plain.get("html-slides")!;
  const yaml = splitFrontmatter(readFileSync(join(slides.dir, "SKILL.md"), "utf8")).yaml!;
  // What only a kept entry can say: another description for the same text.
  const entry = JSON.stringify({ yaml, checked: { frontmatter: { name: "html-slides", description: "from the kept check" }, issues: [] } });
  const write = (format: number, sum: string) => writeFileSync(file, JSON.stringify({ format, entries: [{ sum, entry }] }));
  write(FRONTMATTER_CHECK_FORMAT, textChecksum(entry));
  expect(remembering().get("html-slides")!.description).toBe("from the kept check");
  write(FRONTMATTER_CHECK_FORMAT, "00000000");
  expect(remembering().get("html-slides")!.description).toBe(slides.description);
  write(FRONTMATTER_CHECK_FORMAT + 1, textChecksum(entry));
  expect(remembering().get("html-slides")!.description).toBe(slides.description);
});
