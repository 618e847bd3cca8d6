// Whether a staged copy is still what staging a skill makes of it (server/skills/same-tree.ts): the same files with
// the same bytes and permission bits and nothing else, within limits; anything else is "not the same".
import { expect, test } from "bun:test";
import { chmodSync, cpSync, linkSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isSameTree } from "../../server/skills/same-tree.ts";
import { writeSkill } from "../support/skill-fixtures.ts";
import { tempDir } from "../support/temp.ts";

function skillAndCopy() {
  const temp = tempDir("od-same-tree-");
  const source = writeSkill(join(temp.path, "skills"), "deck", { files: { "references/a.md": "A", "assets/x/y.txt": "Y" } });
  const copy = join(temp.path, "copy");
  cpSync(source, copy, { recursive: true, dereference: true });
  return { temp, source, copy };
}

test("a copy of the tree is the same; a missing copy or a file where the copy should be is not", () => {
  const { temp, source, copy } = skillAndCopy();
  using _ = temp;
  expect(isSameTree(source, copy)).toBe(true);
  expect(isSameTree(source, join(temp.path, "nowhere"))).toBe(false);
  writeFileSync(join(temp.path, "file"), "x");
  expect(isSameTree(source, join(temp.path, "file"))).toBe(false);
});

test("links in the source are followed; a link in the copy, or a file of it with a second name, is never the same", () => {
  const { temp, source, copy } = skillAndCopy();
  using _ = temp;
  writeFileSync(join(temp.path, "outside.md"), "OUT");
  symlinkSync(join(temp.path, "outside.md"), join(source, "linked.md"));
  writeFileSync(join(copy, "linked.md"), "OUT");
  expect(isSameTree(source, copy)).toBe(true);
  const linkedCopy = join(temp.path, "link-to-copy");
  symlinkSync(copy, linkedCopy);
  expect(isSameTree(source, linkedCopy)).toBe(false);
  // A file of the copy hard-linked to the source's: the same bytes, but an edit of the copy would change the source.
  rmSync(join(copy, "SKILL.md"));
  linkSync(join(source, "SKILL.md"), join(copy, "SKILL.md"));
  expect(isSameTree(source, copy)).toBe(false);
});

test("bytes, permission bits, an extra entry or a missing one make it differ", () => {
  const { temp, source, copy } = skillAndCopy();
  using _ = temp;
  writeFileSync(join(copy, "references", "a.md"), "B");
  expect(isSameTree(source, copy)).toBe(false);
  writeFileSync(join(copy, "references", "a.md"), "A");
  chmodSync(join(copy, "references", "a.md"), 0o700);
  expect(isSameTree(source, copy)).toBe(false);
  chmodSync(join(copy, "references", "a.md"), 0o700);
  chmodSync(join(source, "references", "a.md"), 0o700);
  expect(isSameTree(source, copy)).toBe(true);
  mkdirSync(join(copy, "assets", "x", "z"));
  expect(isSameTree(source, copy)).toBe(false);
});

test("a tree beyond the limits, a dangling link in the source or a link where the copy has a folder is not the same", () => {
  const { temp, source, copy } = skillAndCopy();
  using _ = temp;
  // Six entries (SKILL.md, references/, references/a.md, assets/, assets/x/, assets/x/y.txt); the files' bytes: the
  // SKILL.md's, 1 and 1.
  expect(isSameTree(source, copy, { entries: 6, bytes: 1024 })).toBe(true);
  expect(isSameTree(source, copy, { entries: 5, bytes: 1024 })).toBe(false);
  expect(isSameTree(source, copy, { entries: 6, bytes: 10 })).toBe(false);
  symlinkSync(source, join(source, "assets", "loop"));
  symlinkSync(copy, join(copy, "assets", "loop"));
  expect(isSameTree(source, copy)).toBe(false);
  const dangling = skillAndCopy();
  using __ = dangling.temp;
  symlinkSync(join(dangling.temp.path, "missing"), join(dangling.source, "dangling"));
  symlinkSync(join(dangling.temp.path, "missing"), join(dangling.copy, "dangling"));
  expect(isSameTree(dangling.source, dangling.copy)).toBe(false);
});
