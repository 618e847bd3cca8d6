// Issue #38: isolated runs. Real git, the fake Claude CLI writing files, the HTTP routes: runs in worktrees of their
// own never touch the checkout nor each other, their changes are the worktree against its base, and apply, discard,
// the conflict case, follow-up turns, the worktree list and a conversation's deletion do what they say.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RunChangesResponse } from "../../server/contracts/changes.ts";
import { ErrorBody } from "../../server/contracts/http.ts";
import { RunSummary } from "../../server/contracts/runs.ts";
import { ApplyRunResponse, DiscardRunResponse, ProjectWorktreesResponse } from "../../server/contracts/worktrees.ts";
import { projectRoutes } from "../../server/http/projects.ts";
import { runChangeRoutes } from "../../server/http/run-changes.ts";
import { runRoutes } from "../../server/http/runs.ts";
import { worktreeRoutes } from "../../server/http/worktrees.ts";
import { Credentials } from "../../server/http/credentials.ts";
import { ProjectService } from "../../server/projects/project-service.ts";
import { RunGroups } from "../../server/runs/run-groups.ts";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";
import { startTestApp, TEST_TOKEN } from "../support/app.ts";
import { runHarness, type FakeStep } from "../support/fake-agents.ts";
import { tempDir } from "../support/temp.ts";
import { DiskSpace } from "../../server/store/disk-space.ts";

setDefaultTimeout(60_000);

const claude = getAgentDef("claude") as RuntimeAgentDef;
const TEXT = join(import.meta.dir, "..", "fixtures", "claude", "text.jsonl");

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false", ...args], { cwd, encoding: "utf8", stdio: "pipe" });

/** A repository with two committed files, a .gitignore, and (when asked) an uncommitted change. */
function makeRepo(dir: string, options: { dirty?: boolean } = {}): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "a.txt"), "one\ntwo\nthree\n");
  writeFileSync(join(dir, "b.txt"), "bee\n");
  writeFileSync(join(dir, ".gitignore"), "dist/\n");
  git(dir, "init", "-q");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "start");
  if (options.dirty) writeFileSync(join(dir, "notes.txt"), "the person's own notes, not committed\n");
}

/** What the person sees of their checkout: its status, HEAD and every file's content. */
function checkoutState(dir: string) {
  const files: Record<string, string> = {};
  for (const path of git(dir, "ls-files", "-co", "--exclude-standard").split("\n").filter(Boolean)) files[path] = readFileSync(join(dir, path), "utf8");
  return { status: git(dir, "status", "--porcelain"), head: git(dir, "rev-parse", "HEAD"), files };
}

const writes = (path: string, content: string): FakeStep[] => [{ readLine: true }, { writeFile: { path, content } }, { outFile: TEXT }];

async function isolatedApp(options: { steps: FakeStep[]; projectDir?: string }) {
  const h = await runHarness({ defs: [claude], shims: { claude: undefined }, steps: options.steps, ...(options.projectDir ? { projectDir: options.projectDir } : {}) });
  const projects = new ProjectService(h.store, h.projectDir);
  const app = await startTestApp({
    modules: [
      projectRoutes(h.store, projects, new Credentials(TEST_TOKEN), h.worktrees, new DiskSpace(undefined)),
      runRoutes(h.service),
      runChangeRoutes(h.store, h.reverter),
      worktreeRoutes(h.worktrees, new RunGroups(h.store, h.service, h.worktrees), projects),
    ],
  });
  const post = async (path: string, body?: unknown) => {
    const response = await app.json("POST", path, body ?? {});
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const startRun = async (body: Record<string, unknown>) => {
    const { status, body: created } = await post("/api/runs", { projectId: h.projectId, agentId: "claude", ...body });
    return { status, ...(created as { runId: string; conversationId: string }), error: (created as ErrorBody).error };
  };
  const ended = async (runId: string) => {
    for await (const _ of h.service.events(runId)) void _;
    return RunSummary.parse(h.service.get(runId));
  };
  const changes = async (runId: string) => RunChangesResponse.parse(await (await app.call(`/api/runs/${runId}/changes`)).json());
  return {
    h,
    app,
    post,
    startRun,
    ended,
    changes,
    async [Symbol.asyncDispose]() {
      await h.close();
      await app[Symbol.asyncDispose]();
    },
  };
}

function branches(dir: string): string[] {
  return git(dir, "branch", "--list", "od/*", "--format=%(refname:short)").split("\n").filter(Boolean).sort();
}

describe("isolated runs on this machine", () => {
  test("three runs writing the same file at once: each in its own worktree, the checkout untouched; apply one, discard the others", async () => {
    await using t = await isolatedApp({ steps: writes("shared.txt", "{{PROMPT}}\n") });
    makeRepo(t.h.projectDir, { dirty: true });
    const before = checkoutState(t.h.projectDir);
    const started = await Promise.all(["alpha", "beta", "gamma"].map((message) => t.startRun({ message, isolation: "worktree" })));
    expect(started.map((s) => s.status)).toEqual([202, 202, 202]);
    const runs = await Promise.all(started.map((s) => t.ended(s.runId)));
    expect(runs.map((r) => r.status)).toEqual(["succeeded", "succeeded", "succeeded"]);
    expect(checkoutState(t.h.projectDir)).toEqual(before);

    const folders = runs.map((r) => r.worktree!.folder);
    expect(new Set(folders).size).toBe(3);
    for (const [i, run] of runs.entries()) {
      expect(run.isolation).toBe("worktree");
      expect(run.worktree!.branch).toBe(`od/${run.id.slice(-10)}`);
      expect(run.worktree!.folder.startsWith(join(t.h.projectDir, ".."))).toBe(true);
      expect(run.worktree!.folder.startsWith(t.h.projectDir)).toBe(false);
      expect(run.worktree!.carriedPaths).toBe(1);
      // Each sees its own file and the checkout's uncommitted notes, never another run's file.
      expect(readFileSync(join(folders[i]!, "shared.txt"), "utf8")).toBe(`${["alpha", "beta", "gamma"][i]}\n`);
      expect(readFileSync(join(folders[i]!, "notes.txt"), "utf8")).toBe("the person's own notes, not committed\n");
      // Its changes are the worktree against its base: the carried-over notes are not the run's.
      const { changes, source } = await t.changes(run.id);
      expect(source).toBe("git");
      expect(changes.map((c) => [c.path, c.kind, c.diff])).toEqual([["shared.txt", "created", `--- /dev/null\n+++ b/shared.txt\n@@ -0,0 +1,1 @@\n+${["alpha", "beta", "gamma"][i]}\n`]]);
    }
    expect(branches(t.h.projectDir)).toEqual(runs.map((r) => r.worktree!.branch).sort());

    const applied = await t.post(`/api/runs/${runs[1]!.id}/apply`);
    expect(applied.status).toBe(200);
    expect(ApplyRunResponse.parse(applied.body)).toMatchObject({ applied: true, mode: "uncommitted", files: ["shared.txt"], worktree: { state: "applied" } });
    expect(readFileSync(join(t.h.projectDir, "shared.txt"), "utf8")).toBe("beta\n");
    expect(git(t.h.projectDir, "rev-parse", "HEAD")).toBe(before.head);
    expect(readFileSync(join(t.h.projectDir, "notes.txt"), "utf8")).toBe("the person's own notes, not committed\n");

    for (const run of [runs[0]!, runs[2]!]) {
      const discarded = await t.post(`/api/runs/${run.id}/discard`);
      expect(discarded.status).toBe(200);
      expect(DiscardRunResponse.parse(discarded.body)).toMatchObject({ discarded: true, branchDeleted: true, worktree: { state: "discarded" } });
      expect(existsSync(run.worktree!.folder)).toBe(false);
    }
    expect(branches(t.h.projectDir)).toEqual([runs[1]!.worktree!.branch]);
    expect(git(t.h.projectDir, "worktree", "list", "--porcelain").match(/^worktree /gm)).toHaveLength(2);
    // A discarded worktree takes no more runs, and is not applied or discarded twice.
    expect((await t.startRun({ message: "again", conversationId: runs[0]!.conversationId })).error.code).toBe("WORKTREE_DISCARDED");
    expect((await t.post(`/api/runs/${runs[0]!.id}/apply`)).body).toMatchObject({ error: { code: "WORKTREE_DISCARDED" } });
  });

  test("a conflict answers 409 APPLY_CONFLICT naming the files and leaves the checkout exactly as it was, in every mode", async () => {
    await using t = await isolatedApp({ steps: writes("a.txt", "one\nTWO by the agent\nthree\n") });
    makeRepo(t.h.projectDir);
    const started = await t.startRun({ message: "edit a", isolation: "worktree" });
    const run = await t.ended(started.runId);
    writeFileSync(join(t.h.projectDir, "a.txt"), "one\ntwo, the person's\nthree\n");
    writeFileSync(join(t.h.projectDir, "untracked.txt"), "mine\n");
    const before = checkoutState(t.h.projectDir);
    for (const body of [{ mode: "uncommitted" }, { mode: "commit", message: "take it" }]) {
      const answer = await t.post(`/api/runs/${run.id}/apply`, body);
      expect(answer.status).toBe(409);
      const { error } = ErrorBody.parse(answer.body);
      expect(error.code).toBe("APPLY_CONFLICT");
      expect(error.paths).toEqual(["a.txt"]);
      expect(error.message).toContain("left as it was");
      expect(checkoutState(t.h.projectDir)).toEqual(before);
    }
    // The person commits their edit: merging the run's branch now conflicts in content.
    git(t.h.projectDir, "commit", "-q", "-am", "the person's edit");
    const committed = checkoutState(t.h.projectDir);
    const merge = await t.post(`/api/runs/${run.id}/apply`, { mode: "merge" });
    expect(merge.status).toBe(409);
    expect(ErrorBody.parse(merge.body).error).toMatchObject({ code: "APPLY_CONFLICT", paths: ["a.txt"] });
    expect(checkoutState(t.h.projectDir)).toEqual(committed);
    expect(existsSync(join(t.h.projectDir, ".git", "MERGE_HEAD"))).toBe(false);
  });

  test("apply as one commit, or as a merge of the branch", async () => {
    await using t = await isolatedApp({ steps: writes("src/new.ts", "export const x = 1;\n") });
    makeRepo(t.h.projectDir, { dirty: true });
    const first = await t.ended((await t.startRun({ message: "one", isolation: "worktree" })).runId);
    const head = git(t.h.projectDir, "rev-parse", "HEAD").trim();
    const commit = await t.post(`/api/runs/${first.id}/apply`, { mode: "commit", message: "Add src/new.ts" });
    expect(commit.status).toBe(200);
    const made = ApplyRunResponse.parse(commit.body);
    expect(made).toMatchObject({ mode: "commit", files: ["src/new.ts"] });
    expect(git(t.h.projectDir, "rev-parse", "HEAD").trim()).toBe(made.commit!);
    expect(git(t.h.projectDir, "log", "-1", "--format=%s%n%P").trim()).toBe(`Add src/new.ts\n${head}`);
    expect(git(t.h.projectDir, "show", "--name-only", "--format=", "HEAD").trim()).toBe("src/new.ts");
    // Only the run's file went into the commit: the person's uncommitted notes are still theirs.
    expect(git(t.h.projectDir, "status", "--porcelain").trim()).toBe("?? notes.txt");

    rmSync(join(t.h.projectDir, "notes.txt"));
    t.h.script(writes("merged.txt", "from the branch\n"));
    const second = await t.ended((await t.startRun({ message: "two", isolation: "worktree" })).runId);
    const merge = await t.post(`/api/runs/${second.id}/apply`, { mode: "merge" });
    expect(merge.status).toBe(200);
    expect(ApplyRunResponse.parse(merge.body)).toMatchObject({ mode: "merge", files: ["merged.txt"] });
    expect(readFileSync(join(t.h.projectDir, "merged.txt"), "utf8")).toBe("from the branch\n");
    expect(git(t.h.projectDir, "status", "--porcelain").trim()).toBe("");
    expect(git(t.h.projectDir, "merge-base", "--is-ancestor", second.worktree!.branch, "HEAD")).toBe("");
  });

  test("a folder that is not a git repository is refused with 400 NOT_A_GIT_REPOSITORY, and nothing is made", async () => {
    await using t = await isolatedApp({ steps: writes("x.txt", "x\n") });
    const answer = await t.startRun({ message: "hi", isolation: "worktree" });
    expect(answer.status).toBe(400);
    expect(answer.error.code).toBe("NOT_A_GIT_REPOSITORY");
    expect(answer.error.message).toContain("not in a git repository");
    expect(t.h.store.conversations.listForProject(t.h.projectId)).toEqual([]);
    expect(t.h.store.runs.list({ projectId: t.h.projectId })).toEqual([]);
    // A repository without a commit yet has no HEAD to branch from.
    git(t.h.projectDir, "init", "-q");
    const empty = await t.startRun({ message: "hi", isolation: "worktree" });
    expect([empty.status, empty.error.code]).toEqual([400, "NOT_A_GIT_REPOSITORY"]);
    expect(empty.error.message).toContain("no commit yet");
  });

  test("a follow-up turn works in the same worktree; its changes are the worktree's against the base, even what the agent committed", async () => {
    await using t = await isolatedApp({ steps: writes("first.txt", "1\n") });
    makeRepo(t.h.projectDir);
    const first = await t.ended((await t.startRun({ message: "first", isolation: "worktree" })).runId);
    t.h.script([{ readLine: true }, { writeFile: { path: "second.txt", content: "2\n" } }, { git: ["add", "-A"] }, { git: ["commit", "-q", "-m", "agent's own commit"] }, { outFile: TEXT }]);
    const follow = await t.startRun({ message: "second", conversationId: first.conversationId });
    expect(follow.status).toBe(202);
    const second = await t.ended(follow.runId);
    expect(second.isolation).toBe("worktree");
    expect(second.worktree!.folder).toBe(first.worktree!.folder);
    const cwds = t.h.ledger().filter((e) => e.event === "start").map((e) => e.cwd);
    expect(cwds).toEqual([first.worktree!.folder, first.worktree!.folder]);
    expect((await t.changes(second.id)).changes.map((c) => [c.path, c.kind])).toEqual([["first.txt", "created"], ["second.txt", "created"]]);
    expect(existsSync(join(t.h.projectDir, "first.txt"))).toBe(false);
    // The conversation stays isolated; a new conversation's runs may not join one midway.
    expect((await t.startRun({ message: "x", conversationId: first.conversationId, isolation: "none" })).error.code).toBe("ISOLATION_MISMATCH");
    t.h.script(writes("plain.txt", "in the checkout\n"));
    const plain = await t.ended((await t.startRun({ message: "plain" })).runId);
    expect(plain.isolation).toBe("none");
    expect((await t.startRun({ message: "x", conversationId: plain.conversationId, isolation: "worktree" })).error.code).toBe("ISOLATION_MISMATCH");
    expect((await t.post(`/api/runs/${plain.id}/apply`)).body).toMatchObject({ error: { code: "NOT_ISOLATED" } });

    const applied = ApplyRunResponse.parse((await t.post(`/api/runs/${second.id}/apply`)).body);
    expect(applied.files).toEqual(["first.txt", "second.txt"]);
    expect(git(t.h.projectDir, "status", "--porcelain")).toBe("?? first.txt\n?? plain.txt\n?? second.txt\n");
  });

  test("worktrees are listed with their size; deleting the conversation removes its worktree, keeping a branch with unapplied commits", async () => {
    await using t = await isolatedApp({ steps: writes("kept.txt", "k\n") });
    makeRepo(t.h.projectDir);
    const plain = await t.ended((await t.startRun({ message: "no commits", isolation: "worktree" })).runId);
    t.h.script([{ readLine: true }, { writeFile: { path: "c.txt", content: "c\n" } }, { git: ["add", "-A"] }, { git: ["commit", "-q", "-m", "agent"] }, { outFile: TEXT }]);
    const committing = await t.ended((await t.startRun({ message: "commits", isolation: "worktree" })).runId);
    const listed = ProjectWorktreesResponse.parse(await (await t.app.call(`/api/projects/${t.h.projectId}/worktrees`)).json()).worktrees;
    expect(listed.map((w) => [w.conversationId, w.runId, w.runStatus, w.exists, w.active])).toEqual([
      [committing.conversationId, committing.id, "succeeded", true, false],
      [plain.conversationId, plain.id, "succeeded", true, false],
    ]);
    for (const w of listed) expect(w.sizeBytes).toBeGreaterThan(0);

    for (const run of [plain, committing]) {
      const answer = await t.app.call(`/api/conversations/${run.conversationId}`, { method: "DELETE" });
      expect(answer.status).toBe(200);
      const body = await answer.json();
      expect(body).toEqual(run === plain ? { ok: true } : { ok: true, keptBranch: committing.worktree!.branch });
      expect(existsSync(run.worktree!.folder)).toBe(false);
    }
    expect(branches(t.h.projectDir)).toEqual([committing.worktree!.branch]);
    expect(ProjectWorktreesResponse.parse(await (await t.app.call(`/api/projects/${t.h.projectId}/worktrees`)).json()).worktrees).toEqual([]);

    // Forgetting the project removes its worktrees too (its folder and files stay).
    const last = await t.ended((await t.startRun({ message: "last", isolation: "worktree" })).runId);
    expect((await t.app.call(`/api/projects/${t.h.projectId}`, { method: "DELETE" })).status).toBe(200);
    expect(existsSync(last.worktree!.folder)).toBe(false);
    expect(existsSync(join(t.h.projectDir, "a.txt"))).toBe(true);
  });

  test("a canceled run leaves its worktree listed and consistent; od starting prunes worktrees whose folders are gone", async () => {
    await using t = await isolatedApp({ steps: [{ readLine: true }, { writeFile: { path: "half.txt", content: "half\n" } }, { hang: true }] });
    makeRepo(t.h.projectDir);
    const started = await t.startRun({ message: "slow", isolation: "worktree" });
    const folder = () => t.h.store.worktrees.ofConversation(started.conversationId)!.folder;
    while (!existsSync(join(folder(), "half.txt"))) await Bun.sleep(20);
    expect((await t.post(`/api/runs/${started.runId}/discard`)).body).toMatchObject({ error: { code: "RUN_IN_PROGRESS" } });
    await t.post(`/api/runs/${started.runId}/cancel`);
    const run = await t.ended(started.runId);
    expect(run.status).toBe("canceled");
    expect((await t.changes(run.id)).changes.map((c) => c.path)).toEqual(["half.txt"]);
    const listed = ProjectWorktreesResponse.parse(await (await t.app.call(`/api/projects/${t.h.projectId}/worktrees`)).json()).worktrees;
    expect(listed.map((w) => [w.runStatus, w.exists, w.state])).toEqual([["canceled", true, "active"]]);

    rmSync(folder(), { recursive: true, force: true });
    expect(git(t.h.projectDir, "worktree", "list")).toContain(folder());
    await t.h.worktrees.pruneAtStart();
    expect(git(t.h.projectDir, "worktree", "list")).not.toContain(folder());
    expect(branches(t.h.projectDir)).toEqual([run.worktree!.branch]);
    const after = ProjectWorktreesResponse.parse(await (await t.app.call(`/api/projects/${t.h.projectId}/worktrees`)).json()).worktrees;
    expect(after.map((w) => [w.exists, w.sizeBytes])).toEqual([[false, null]]);
    // Discarding it still deletes its branch.
    expect((await t.post(`/api/runs/${run.id}/discard`)).status).toBe(200);
    expect(branches(t.h.projectDir)).toEqual([]);
  });

  test("a project in a subfolder of its repository: the worktree's project folder, project-relative changes, applied in the subfolder", async () => {
    using temp = tempDir("od-wt-sub-");
    const repo = join(temp.path, "repo");
    makeRepo(repo);
    mkdirSync(join(repo, "site"));
    writeFileSync(join(repo, "site", "index.html"), "<p>a</p>\n");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "site");
    await using t = await isolatedApp({ steps: [{ readLine: true }, { writeFile: { path: "index.html", content: "<p>b</p>\n" } }, { writeFile: { path: "../outside.txt", content: "not the project's\n" } }, { outFile: TEXT }], projectDir: join(repo, "site") });
    const run = await t.ended((await t.startRun({ message: "edit", isolation: "worktree" })).runId);
    expect(t.h.ledger().find((e) => e.event === "start")!.cwd).toBe(join(run.worktree!.folder, "site"));
    expect((await t.changes(run.id)).changes.map((c) => c.path)).toEqual(["index.html"]);
    expect(ApplyRunResponse.parse((await t.post(`/api/runs/${run.id}/apply`)).body).files).toEqual(["index.html"]);
    expect(readFileSync(join(repo, "site", "index.html"), "utf8")).toBe("<p>b</p>\n");
    expect(existsSync(join(repo, "outside.txt"))).toBe(false);
  });
});

