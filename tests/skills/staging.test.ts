// Staging selected skills into <cwd>/.od-skills/: hashed names, real dereferenced copies, replaced each run unless
// the copy is still exactly what staging makes, a stream-copy fallback for cross-device failures, and a refusal when
// .od-skills is a file.
import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { copyTreeDereferenced, streamCopyTree } from "../../server/skills/copy-tree.ts";
import { stageSkill, stagingFolderName } from "../../server/skills/staging.ts";
import { writeSkill } from "../support/skill-fixtures.ts";
import { tempDir } from "../support/temp.ts";

function setup() {
  const temp = tempDir("od-stage-");
  const cwd = join(temp.path, "project");
  mkdirSync(cwd);
  const source = writeSkill(join(temp.path, "skills"), "deck", { files: { "references/a.md": "A", "assets/x/y.txt": "Y" } });
  return { temp, cwd, source };
}

const exdev = async () => {
  throw Object.assign(new Error("EXDEV: cross-device link not permitted"), { code: "EXDEV" });
};

test("the folder name is <basename>-<first 10 hex of sha256(resolved path with / separators)>", () => {
  const path = "/some/where/deck";
  const hash = createHash("sha256").update(resolve(path)).digest("hex").slice(0, 10);
  expect(stagingFolderName(path)).toBe(`deck-${hash}`);
  expect(stagingFolderName("/some/where/deck/")).toBe(`deck-${hash}`);
});

describe("stageSkill", () => {
  test("copies the folder under .od-skills as real files and returns the cwd-relative path", async () => {
    const s = setup();
    using _ = s.temp;
    const result = await stageSkill(s.source, s.cwd);
    expect(result).toMatchObject({ staged: true, relPath: `.od-skills/${stagingFolderName(s.source)}`, via: "primary" });
    if (!result.staged) throw new Error("not staged");
    expect(result.absPath).toBe(join(s.cwd, result.relPath));
    for (const rel of ["SKILL.md", "references/a.md", "assets/x/y.txt"]) {
      const stat = lstatSync(join(result.absPath, rel));
      expect(stat.isFile() && !stat.isSymbolicLink()).toBe(true);
    }
    expect(lstatSync(result.absPath).isSymbolicLink()).toBe(false);
    expect(readFileSync(join(s.cwd, ".od-skills", ".gitignore"), "utf8")).toBe("*\n");
  });

  test("a symlinked source (and links inside it) are dereferenced: editing the copy never touches the source", async () => {
    const s = setup();
    using _ = s.temp;
    writeFileSync(join(s.temp.path, "outside.md"), "OUT");
    symlinkSync(join(s.temp.path, "outside.md"), join(s.source, "linked.md"));
    const linkToSkill = join(s.temp.path, "link-to-deck");
    symlinkSync(s.source, linkToSkill);
    const result = await stageSkill(linkToSkill, s.cwd);
    if (!result.staged) throw new Error(result.reason);
    expect(result.relPath).toBe(`.od-skills/${stagingFolderName(linkToSkill)}`);
    const staged = join(result.absPath, "linked.md");
    expect(lstatSync(staged).isSymbolicLink()).toBe(false);
    writeFileSync(staged, "EDITED");
    writeFileSync(join(result.absPath, "SKILL.md"), "EDITED");
    expect(readFileSync(join(s.temp.path, "outside.md"), "utf8")).toBe("OUT");
    expect(readFileSync(join(s.source, "SKILL.md"), "utf8")).not.toBe("EDITED");
  });

  test("each run replaces the previous copy: stale files are gone, a legacy link is replaced by a folder", async () => {
    const s = setup();
    using _ = s.temp;
    const first = await stageSkill(s.source, s.cwd);
    if (!first.staged) throw new Error(first.reason);
    writeFileSync(join(first.absPath, "stale.txt"), "left by the agent");
    writeFileSync(join(s.source, "references", "a.md"), "A2");
    const second = await stageSkill(s.source, s.cwd);
    if (!second.staged) throw new Error(second.reason);
    expect(existsSync(join(second.absPath, "stale.txt"))).toBe(false);
    expect(readFileSync(join(second.absPath, "references", "a.md"), "utf8")).toBe("A2");

    const { rmSync } = await import("node:fs");
    rmSync(second.absPath, { recursive: true });
    symlinkSync(s.source, second.absPath);
    const third = await stageSkill(s.source, s.cwd);
    if (!third.staged) throw new Error(third.reason);
    expect(lstatSync(third.absPath).isSymbolicLink()).toBe(false);
    expect(existsSync(join(s.source, "SKILL.md"))).toBe(true); // removing the link did not remove its target
  });

  test("a copy still as staging made it is kept, not copied again; one the agent changed in any way is replaced", async () => {
    const s = setup();
    using _ = s.temp;
    const refuse = async () => {
      throw Object.assign(new Error("EIO: the copy was not needed"), { code: "EIO" });
    };
    const first = await stageSkill(s.source, s.cwd);
    if (!first.staged) throw new Error(first.reason);
    const inode = lstatSync(join(first.absPath, "SKILL.md")).ino;
    expect(await stageSkill(s.source, s.cwd, refuse)).toEqual({ ...first, via: "kept" });
    expect(lstatSync(join(first.absPath, "SKILL.md")).ino).toBe(inode);

    const sourceText = readFileSync(join(s.source, "references", "a.md"), "utf8");
    const changes: [string, () => void][] = [
      ["the same size, other bytes", () => writeFileSync(join(first.absPath, "references", "a.md"), "B")],
      ["its permission bits", () => chmodSync(join(first.absPath, "references", "a.md"), 0o755)],
      ["a file removed", () => unlinkSync(join(first.absPath, "assets", "x", "y.txt"))],
      ["a folder added", () => mkdirSync(join(first.absPath, "assets", "new"))],
      ["a file turned into a link", () => {
        unlinkSync(join(first.absPath, "references", "a.md"));
        symlinkSync(join(s.source, "references", "a.md"), join(first.absPath, "references", "a.md"));
      }],
    ];
    for (const [what, change] of changes) {
      change();
      expect([what, await stageSkill(s.source, s.cwd, refuse)]).toMatchObject([what, { staged: false, code: "copy-failed" }]);
      const again = await stageSkill(s.source, s.cwd);
      expect([what, again]).toMatchObject([what, { staged: true, via: "primary" }]);
      expect([what, lstatSync(join(first.absPath, "references", "a.md")).isFile()]).toEqual([what, true]);
      expect([what, readFileSync(join(first.absPath, "references", "a.md"), "utf8")]).toEqual([what, sourceText]);
      expect([what, (await stageSkill(s.source, s.cwd, refuse)).staged]).toEqual([what, true]);
    }
  });

  test(".od-skills as a file → refused with a reason, nothing written", async () => {
    const s = setup();
    using _ = s.temp;
    writeFileSync(join(s.cwd, ".od-skills"), "not a folder");
    expect(await stageSkill(s.source, s.cwd)).toEqual({ staged: false, code: "staging-dir-not-a-folder", reason: expect.stringContaining("not a folder") });
    expect(readFileSync(join(s.cwd, ".od-skills"), "utf8")).toBe("not a folder");
  });

  test("EXDEV from the fast copy → the stream copy does the job", async () => {
    const s = setup();
    using _ = s.temp;
    const result = await stageSkill(s.source, s.cwd, exdev);
    expect(result).toMatchObject({ staged: true, via: "stream" });
    if (!result.staged) throw new Error(result.reason);
    expect(readFileSync(join(result.absPath, "assets", "x", "y.txt"), "utf8")).toBe("Y");
  });

  test("an unrecoverable copy error is a reason, not an exception, and leaves no temp folder", async () => {
    const s = setup();
    using _ = s.temp;
    const result = await stageSkill(s.source, s.cwd, async () => {
      throw Object.assign(new Error("EIO: broken disk"), { code: "EIO" });
    });
    expect(result).toMatchObject({ staged: false, code: "copy-failed", reason: expect.stringContaining("EIO") });
    const { readdirSync } = await import("node:fs");
    expect(readdirSync(join(s.cwd, ".od-skills"))).toEqual([".gitignore"]);
  });
});

describe("copy-tree", () => {
  test("the stream copy follows links, survives a link cycle and skips dangling links", async () => {
    const s = setup();
    using _ = s.temp;
    symlinkSync(s.source, join(s.source, "assets", "loop"));
    symlinkSync(join(s.temp.path, "missing"), join(s.source, "dangling"));
    const target = join(s.temp.path, "copy");
    await streamCopyTree(s.source, target);
    expect(readFileSync(join(target, "references", "a.md"), "utf8")).toBe("A");
    expect(existsSync(join(target, "dangling"))).toBe(false);
  });

  test("only EPERM, EXDEV, ENOTSUP and EOPNOTSUPP fall back", async () => {
    const s = setup();
    using _ = s.temp;
    for (const code of ["EPERM", "EXDEV", "ENOTSUP", "EOPNOTSUPP"]) {
      const fail = async () => {
        throw Object.assign(new Error(code), { code });
      };
      expect(await copyTreeDereferenced(s.source, join(s.temp.path, `c-${code}`), fail)).toBe("stream");
    }
    const eacces = async () => {
      throw Object.assign(new Error("EACCES"), { code: "EACCES" });
    };
    expect(copyTreeDereferenced(s.source, join(s.temp.path, "c-x"), eacces)).rejects.toThrow("EACCES");
  });
});
