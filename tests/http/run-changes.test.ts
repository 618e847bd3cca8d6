// A run in a git repository edits a tracked file and adds one: GET /api/runs/:id/changes gives both with diffs, and
// the run's `files` (end event, run summary) name them.
import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RunChangesResponse } from "../../server/contracts/changes.ts";
import { runChangeRoutes } from "../../server/http/run-changes.ts";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import { startTestApp } from "../support/app.ts";
import { endOf, runHarness } from "../support/fake-agents.ts";
import { tempDir } from "../support/temp.ts";

const fixture = (cli: string, scenario: string) => join(import.meta.dir, "..", "fixtures", cli, `${scenario}.jsonl`);
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false", ...args], { cwd, stdio: "pipe" });

describe("GET /api/runs/:id/changes", () => {
  test("a run that edits a tracked file and creates one: both, with unified diffs, from git's view", async () => {
    using repo = tempDir("od-run-changes-");
    mkdirSync(join(repo.path, "src"));
    writeFileSync(join(repo.path, "src/app.ts"), "export const greeting = 'hi';\n");
    git(repo.path, "init", "-q");
    git(repo.path, "add", "-A");
    git(repo.path, "commit", "-q", "-m", "start");
    await using h = await runHarness({
      defs: [getAgentDef("claude")!],
      shims: { claude: undefined },
      projectDir: repo.path,
      steps: [
        { readLine: true },
        { writeFile: { path: "src/app.ts", content: "export const greeting = 'hello';\n" } },
        { writeFile: { path: "NOTES.md", content: "# notes\n" } },
        { outFile: fixture("claude", "text") },
      ],
    });
    const { runId, events } = await h.run({ agentId: "claude", message: "edit it" });
    expect(endOf(events).files).toEqual(["NOTES.md", "src/app.ts"]);

    await using t = await startTestApp({ modules: [runChangeRoutes(h.store)] });
    const body = RunChangesResponse.parse(await (await t.call(`/api/runs/${runId}/changes`)).json());
    expect(body.source).toBe("git");
    expect(body.changes.map((c) => [c.path, c.kind, c.additions, c.deletions])).toEqual([
      ["NOTES.md", "created", 1, 0],
      ["src/app.ts", "modified", 1, 1],
    ]);
    expect(body.changes[1]!.diff).toBe("--- a/src/app.ts\n+++ b/src/app.ts\n@@ -1,1 +1,1 @@\n-export const greeting = 'hi';\n+export const greeting = 'hello';\n");
    expect((await t.call("/api/runs/run_nope/changes")).status).toBe(404);
  });
});
