/**
 * The README is the front door (issue #39): short enough to read through, and every page or picture it points at is
 * there, so a newcomer never follows a dead link. The same for the guides under docs/ and bench/.
 */
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { daemonFilePath } from "../../server/daemon-file.ts";
import { signInPagesDir } from "../../server/cli/sign-in-page.ts";
import { dataPaths } from "../../server/paths.ts";

const root = join(import.meta.dir, "..", "..");
const guides = ["README.md", "docs/api.md", "docs/approvals.md", "docs/configuration.md", "docs/development.md", "docs/remote-projects.md", "docs/security.md", "bench/README.md"];

/** Relative link and image targets of a Markdown text (`[..](target)`), without their `#fragment`. */
function localTargets(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!).filter((target) => !/^[a-z]+:/i.test(target) && !target.startsWith("#")).map((target) => target.split("#")[0]!);
}

test("the README stays under 250 lines", () => {
  expect(readFileSync(join(root, "README.md"), "utf8").split("\n").length).toBeLessThan(250);
});

test("every local link and picture in the README and the guides exists", () => {
  const dead: string[] = [];
  for (const guide of guides) {
    const text = readFileSync(join(root, guide), "utf8");
    for (const target of localTargets(text)) if (!existsSync(join(root, dirname(guide), target))) dead.push(`${guide} → ${target}`);
  }
  expect(dead).toEqual([]);
  expect(localTargets(readFileSync(join(root, "README.md"), "utf8"))).toContain("docs/screenshot.png");
});

test("the data dir's table in docs/configuration.md names everything od keeps there, and nothing else", () => {
  const doc = readFileSync(join(root, "docs", "configuration.md"), "utf8");
  const table = doc.slice(doc.indexOf("## The data dir"));
  const listed = [...table.matchAll(/^\| `([^`]+?)\/?` \|/gm)].map((match) => match[1]!);
  const kept = [...Object.values(dataPaths("/d")), daemonFilePath("/d"), signInPagesDir("/d"), "/d/ssh"].map((path) => basename(path));
  expect(listed.sort()).toEqual([...new Set(kept)].sort());
});
