// The approvals suite runs one file per CLI (approvals/<cli>.test.ts): none is left out, and each runs its own CLI.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { APPROVAL_CLIS } from "./approvals-suite.ts";

test("every CLI of the approvals suite has its file, which runs that CLI", () => {
  const dir = join(import.meta.dir, "approvals");
  const files = readdirSync(dir).filter((name) => name.endsWith(".test.ts"));
  expect(files.map((name) => name.slice(0, -".test.ts".length)).sort()).toEqual([...APPROVAL_CLIS].sort());
  for (const name of files) expect(readFileSync(join(dir, name), "utf8")).toContain(`describeApprovals("${name.slice(0, -".test.ts".length)}");`);
});
