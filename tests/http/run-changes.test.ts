// A run in a git repository edits a tracked file and adds one: GET /api/runs/:id/changes gives both with diffs, and
// the run's `files` (end event, run summary) name them.
import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RevertRunResponse, RunChangesResponse } from "../../server/contracts/changes.ts";
import { planRevert } from "../../server/runs/run-revert.ts";
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

    await using t = await startTestApp({ modules: [runChangeRoutes(h.store, h.reverter)] });
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

const REVERT = { method: "POST", body: "{}", headers: { "content-type": "application/json" } };

describe("POST /api/runs/:id/revert", () => {
  /** A repository with two tracked files, and a run that edits one, deletes the other and creates a third. */
  async function editedRepo(repo: string) {
    mkdirSync(join(repo, "src"));
    writeFileSync(join(repo, "src/app.ts"), "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n");
    writeFileSync(join(repo, "OLD.md"), "# old\n");
    git(repo, "init", "-q");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "start");
    const h = await runHarness({
      defs: [getAgentDef("claude")!],
      shims: { claude: undefined },
      projectDir: repo,
      steps: [
        { readLine: true },
        { writeFile: { path: "src/app.ts", content: "one\ntwo\nTHREE\nfour\nfive\nsix\nseven\neight\n" } },
        { writeFile: { path: "NOTES.md", content: "# notes\n" } },
        { removeFile: "OLD.md" },
        { outFile: fixture("claude", "text") },
      ],
    });
    const { runId } = await h.run({ agentId: "claude", message: "edit it" });
    const t = await startTestApp({ modules: [runChangeRoutes(h.store, h.reverter)] });
    return { h, t, runId };
  }

  test("puts every file back as it was before the run: edits undone, created files removed, deleted ones restored", async () => {
    using repo = tempDir("od-run-revert-");
    const { h, t, runId } = await editedRepo(repo.path);
    await using _h = h;
    await using _t = t;
    const appMode = statSync(join(repo.path, "src/app.ts")).mode & 0o777;
    const response = await t.call(`/api/runs/${runId}/revert`, REVERT);
    expect(response.status).toBe(200);
    expect(RevertRunResponse.parse(await response.json()).reverted.sort()).toEqual(["NOTES.md", "OLD.md", "src/app.ts"]);
    expect(readFileSync(join(repo.path, "src/app.ts"), "utf8")).toBe("one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n");
    expect(readFileSync(join(repo.path, "OLD.md"), "utf8")).toBe("# old\n");
    expect(existsSync(join(repo.path, "NOTES.md"))).toBe(false);
    expect(execFileSync("git", ["status", "--porcelain"], { cwd: repo.path, encoding: "utf8" })).toBe("");
    // Written in place: the file keeps its mode (od's own files are 0600; a project's are not).
    expect(statSync(join(repo.path, "src/app.ts")).mode & 0o777).toBe(appMode);
  });

  test("a file changed since the run, even outside the run's lines, refuses the whole revert and names it; nothing is written", async () => {
    using repo = tempDir("od-run-revert-");
    const { h, t, runId } = await editedRepo(repo.path);
    await using _h = h;
    await using _t = t;
    // Line eight is outside the run's hunk: a patch alone would still apply.
    writeFileSync(join(repo.path, "src/app.ts"), "one\ntwo\nTHREE\nfour\nfive\nsix\nseven\nEIGHT\n");
    const response = await t.call(`/api/runs/${runId}/revert`, REVERT);
    expect(response.status).toBe(409);
    const { error } = (await response.json()) as { error: { code: string; message: string; paths: string[] } };
    expect(error.code).toBe("REVERT_CONFLICT");
    expect(error.paths).toEqual(["src/app.ts"]);
    expect(error.message).toContain("changed since the run");
    expect(readFileSync(join(repo.path, "NOTES.md"), "utf8")).toBe("# notes\n");
    expect(existsSync(join(repo.path, "OLD.md"))).toBe(false);
    expect((await t.call("/api/runs/run_nope/revert", REVERT)).status).toBe(404);
  });

  test("what cannot be put back is said per file: binary, a cut diff, a deleted file that exists again, a record with no hash", () => {
    const base = { diff: "--- a/x\n+++ b/x\n@@ -1,1 +1,1 @@\n-a\n+b\n", additions: 1, deletions: 1, binary: false } as const;
    const { steps, refused } = planRevert(
      [
        { ...base, path: "bin", kind: "modified", diff: null, binary: true, omitted: "binary" },
        { ...base, path: "big", kind: "modified", omitted: "too-large" },
        { ...base, path: "gone", kind: "deleted", diff: "--- a/gone\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-a\n" },
        { ...base, path: "old", kind: "modified" },
      ],
      new Map([
        ["gone", { kind: "text", text: "back\n" }],
        ["old", { kind: "text", text: "b\n" }],
      ]),
    );
    expect(steps).toEqual([]);
    expect(refused.map((r) => r.path)).toEqual(["bin", "big", "gone", "old"]);
    expect(refused.map((r) => r.reason)).toEqual([
      "binary: od keeps no diff of it",
      "too large: od kept no whole diff of it",
      "it exists again since the run deleted it",
      "recorded before od kept what a run left in its files",
    ]);
  });
});
