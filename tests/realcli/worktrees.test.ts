/**
 * Issue #38 against real CLIs (the pinned ones, already installed: this file never installs) and the fake model
 * server, through a real `od serve` on a git project: an isolated run's write lands in its worktree and never in the
 * checkout; a follow-up turn works in the same worktree; a group of two runs of the CLI makes two worktrees from one
 * base; one is applied (the checkout gets its file), the other discarded (its worktree and branch gone).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RunSummary } from "../../server/contracts/runs.ts";
import type { CreateRunGroupResponse, RunGroupResponse } from "../../server/contracts/worktrees.ts";
import type { RunningDaemon } from "../support/daemon-process.ts";
import { callOd, createProject, startOdDaemon } from "./od-http.ts";
import { createOdSandbox, type OdSandbox } from "./od-sandbox.ts";
import { installIsCurrent } from "./setup.ts";
import type { RealCliId } from "./versions.ts";

/** One CLI per transport family: Claude's stream-json and codex's app-server. */
const CLIS: RealCliId[] = ["claude", "codex"];
const WAIT_MS = 180_000;
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false", ...args], { cwd, encoding: "utf8", stdio: "pipe" });

for (const cli of CLIS) describe(`real ${cli} in worktrees`, () => {
  let sandbox: OdSandbox;
  let daemon: RunningDaemon;
  let projectId: string;
  const api = (method: string, path: string, body?: unknown) => callOd(daemon, method, path, body);
  const write = (file: string, content: string) => `[[od:write path=${file} content="${content}"]]`;

  async function ended(runId: string): Promise<RunSummary> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const summary = (await api("GET", `/api/runs/${runId}`)).json as RunSummary;
      if (summary.endedAt !== null) return summary;
      if (Date.now() > deadline) throw new Error(`run ${runId} did not end\n${daemon.stderr().slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  beforeAll(async () => {
    if (!installIsCurrent()) throw new Error("the pinned real CLIs are not installed in tests/realcli/.cache (run the real-CLI suite once)");
    sandbox = await createOdSandbox(cli);
    writeFileSync(join(sandbox.project, "README.md"), "# project\n");
    git(sandbox.project, "init", "-q");
    git(sandbox.project, "add", "-A");
    git(sandbox.project, "commit", "-q", "-m", "start");
    daemon = await startOdDaemon(sandbox);
    projectId = await createProject(daemon, sandbox);
  }, WAIT_MS);

  afterAll(async () => {
    await daemon?.stop();
    await sandbox?.dispose();
  });

  test("an isolated run writes in its worktree, never the checkout; a follow-up works in the same worktree; apply brings both files", async () => {
    const before = git(sandbox.project, "status", "--porcelain");
    const created = await api("POST", "/api/runs", { projectId, agentId: sandbox.agentId, message: write("first.txt", "one"), isolation: "worktree" });
    expect(created.status).toBe(202);
    const first = await ended(created.json.runId);
    expect(first.status).toBe("succeeded");
    expect(first.worktree!.branch).toBe(`od/${first.id.slice(-10)}`);
    expect(existsSync(join(first.worktree!.folder, "first.txt"))).toBe(true);
    expect(existsSync(join(sandbox.project, "first.txt"))).toBe(false);
    expect(git(sandbox.project, "status", "--porcelain")).toBe(before);

    const follow = await api("POST", "/api/runs", { projectId, agentId: sandbox.agentId, conversationId: first.conversationId, message: write("second.txt", "two") });
    expect(follow.status).toBe(202);
    const second = await ended(follow.json.runId);
    expect(second.status).toBe("succeeded");
    expect(second.worktree!.folder).toBe(first.worktree!.folder);
    const changes = (await api("GET", `/api/runs/${second.id}/changes`)).json as { changes: { path: string }[] };
    expect(changes.changes.map((c) => c.path)).toEqual(["first.txt", "second.txt"]);

    const applied = await api("POST", `/api/runs/${second.id}/apply`, { mode: "commit", message: "Take both files" });
    expect(applied.status).toBe(200);
    expect(readFileSync(join(sandbox.project, "second.txt"), "utf8")).toContain("two");
    expect(git(sandbox.project, "log", "-1", "--format=%s").trim()).toBe("Take both files");
  }, WAIT_MS);

  test("a group of two runs: two worktrees from one base, the checkout untouched; apply one, discard the other", async () => {
    const before = { status: git(sandbox.project, "status", "--porcelain"), head: git(sandbox.project, "rev-parse", "HEAD") };
    const created = await api("POST", "/api/run-groups", { projectId, message: write("group.txt", "from a group"), agentIds: [sandbox.agentId, sandbox.agentId] });
    expect(created.status).toBe(202);
    const { groupId, runs } = created.json as CreateRunGroupResponse;
    for (const run of runs) expect((await ended(run.runId)).status).toBe("succeeded");
    expect({ status: git(sandbox.project, "status", "--porcelain"), head: git(sandbox.project, "rev-parse", "HEAD") }).toEqual(before);
    const group = (await api("GET", `/api/run-groups/${groupId}`)).json as RunGroupResponse;
    expect(new Set(group.runs.map((r) => r.worktree!.base))).toEqual(new Set([group.base!]));
    expect(group.runs.map((r) => r.changes?.files)).toEqual([1, 1]);
    const folders = group.runs.map((r) => r.worktree!.folder);
    expect(folders.map((f) => existsSync(join(f, "group.txt")))).toEqual([true, true]);

    expect((await api("POST", `/api/runs/${runs[0]!.runId}/apply`, {})).status).toBe(200);
    expect(readFileSync(join(sandbox.project, "group.txt"), "utf8")).toContain("from a group");
    expect((await api("POST", `/api/runs/${runs[1]!.runId}/discard`, {})).status).toBe(200);
    expect(existsSync(folders[1]!)).toBe(false);
    expect(git(sandbox.project, "branch", "--list", group.runs[1]!.worktree!.branch)).toBe("");
  }, WAIT_MS);
});
