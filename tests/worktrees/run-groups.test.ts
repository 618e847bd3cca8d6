// Issue #38: one prompt to several agents. A group of three runs (Claude, OpenCode and Claude again, fake CLIs) that
// all write the same file: each in its own worktree from one base, the checkout's status and HEAD the same before
// and after; the group's view gives each run's status, time, usage and change stats; one is applied, the others
// discarded. A group naming an agent that cannot run starts none of its runs.
import { expect, setDefaultTimeout, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ErrorBody } from "../../server/contracts/http.ts";
import { CreateRunGroupResponse, RunGroupResponse } from "../../server/contracts/worktrees.ts";
import { runChangeRoutes } from "../../server/http/run-changes.ts";
import { runRoutes } from "../../server/http/runs.ts";
import { worktreeRoutes } from "../../server/http/worktrees.ts";
import { ProjectService } from "../../server/projects/project-service.ts";
import { RunGroups } from "../../server/runs/run-groups.ts";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";
import { startTestApp } from "../support/app.ts";
import { runHarness } from "../support/fake-agents.ts";

setDefaultTimeout(60_000);

const FIXTURES = join(import.meta.dir, "..", "fixtures");
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false", ...args], { cwd, encoding: "utf8", stdio: "pipe" });

test("three agents, one prompt: three worktrees from one base, the checkout untouched, compared and one applied", async () => {
  const defs = [getAgentDef("claude"), getAgentDef("opencode")] as RuntimeAgentDef[];
  await using h = await runHarness({
    defs,
    shims: { claude: undefined, opencode: undefined },
    steps: [{ readLine: true }, { writeFile: { path: "answer.md", content: "claude: {{PROMPT}}\n" } }, { outFile: join(FIXTURES, "claude", "text.jsonl") }],
  });
  const opencodeScript = join(h.binDir, "opencode-script.json");
  writeFileSync(opencodeScript, JSON.stringify([{ readAll: true }, { writeFile: { path: "answer.md", content: "opencode\nwrote this\n" } }, { outFile: join(FIXTURES, "opencode", "text.jsonl") }]));
  h.store.appConfig.update({ agentCliEnv: { opencode: { FAKE_CLI_SCRIPT: `@${opencodeScript}` } } });
  mkdirSync(h.projectDir, { recursive: true });
  writeFileSync(join(h.projectDir, "answer.md"), "nothing yet\n");
  git(h.projectDir, "init", "-q");
  git(h.projectDir, "add", "-A");
  git(h.projectDir, "commit", "-q", "-m", "start");
  writeFileSync(join(h.projectDir, "wip.txt"), "the person's work in progress\n");
  const status = git(h.projectDir, "status", "--porcelain");
  const head = git(h.projectDir, "rev-parse", "HEAD");

  const groups = new RunGroups(h.store, h.service, h.worktrees);
  await using app = await startTestApp({ modules: [runRoutes(h.service), runChangeRoutes(h.store, h.reverter), worktreeRoutes(h.worktrees, groups, new ProjectService(h.store, h.projectDir))] });
  const created = await app.json("POST", "/api/run-groups", { projectId: h.projectId, message: "write the answer", agentIds: ["claude", "opencode", "claude"] });
  expect(created.status).toBe(202);
  const { groupId, runs } = CreateRunGroupResponse.parse(await created.json());
  expect(runs.map((r) => r.agentId)).toEqual(["claude", "opencode", "claude"]);
  expect(new Set(runs.map((r) => r.conversationId)).size).toBe(3);
  for (const { runId } of runs) for await (const _ of h.service.events(runId)) void _;

  expect(git(h.projectDir, "status", "--porcelain")).toBe(status);
  expect(git(h.projectDir, "rev-parse", "HEAD")).toBe(head);
  expect(readFileSync(join(h.projectDir, "answer.md"), "utf8")).toBe("nothing yet\n");

  const group = RunGroupResponse.parse(await (await app.call(`/api/run-groups/${groupId}`)).json());
  expect(group.message).toBe("write the answer");
  expect(group.runs.map((r) => [r.runId, r.agentId, r.status])).toEqual(runs.map((r) => [r.runId, r.agentId, "succeeded"]));
  // One base for all: the checkout with its work in progress carried over.
  expect(new Set(group.runs.map((r) => r.worktree!.base))).toEqual(new Set([group.base!]));
  expect(group.runs.every((r) => r.worktree!.carriedPaths === 1)).toBe(true);
  expect(group.runs.map((r) => r.changes)).toEqual([
    { files: 1, additions: 1, deletions: 1, created: 0, modified: 1, deleted: 0 },
    { files: 1, additions: 2, deletions: 1, created: 0, modified: 1, deleted: 0 },
    { files: 1, additions: 1, deletions: 1, created: 0, modified: 1, deleted: 0 },
  ]);
  for (const run of group.runs) expect(run.durationMs).toBeGreaterThanOrEqual(0);
  expect(group.runs[1]!.inputTokens).toBe(10);
  const folders = group.runs.map((r) => r.worktree!.folder);
  expect(folders.map((f) => readFileSync(join(f, "answer.md"), "utf8"))).toEqual(["claude: write the answer\n", "opencode\nwrote this\n", "claude: write the answer\n"]);

  expect((await app.json("POST", `/api/runs/${runs[1]!.runId}/apply`, {})).status).toBe(200);
  expect(readFileSync(join(h.projectDir, "answer.md"), "utf8")).toBe("opencode\nwrote this\n");
  for (const other of [runs[0]!, runs[2]!]) expect((await app.json("POST", `/api/runs/${other.runId}/discard`, {})).status).toBe(200);
  expect(folders.map((f) => existsSync(f))).toEqual([false, true, false]);
  const after = RunGroupResponse.parse(await (await app.call(`/api/run-groups/${groupId}`)).json());
  expect(after.runs.map((r) => r.worktree!.state)).toEqual(["discarded", "applied", "discarded"]);
});

test("a group naming an agent that cannot run is refused before any of its runs starts; fewer than two agents is a 400", async () => {
  await using h = await runHarness({ defs: [getAgentDef("claude") as RuntimeAgentDef], shims: { claude: undefined }, steps: [] });
  writeFileSync(join(h.projectDir, "a.txt"), "a\n");
  git(h.projectDir, "init", "-q");
  git(h.projectDir, "add", "-A");
  git(h.projectDir, "commit", "-q", "-m", "start");
  const groups = new RunGroups(h.store, h.service, h.worktrees);
  await using app = await startTestApp({ modules: [worktreeRoutes(h.worktrees, groups, new ProjectService(h.store, h.projectDir))] });
  const unknown = await app.json("POST", "/api/run-groups", { projectId: h.projectId, message: "m", agentIds: ["claude", "no-such-agent"] });
  expect(unknown.status).toBe(400);
  expect(ErrorBody.parse(await unknown.json()).error.code).toBe("UNKNOWN_AGENT");
  expect(h.store.runs.list({ projectId: h.projectId })).toEqual([]);
  expect(git(h.projectDir, "branch", "--list", "od/*")).toBe("");
  const one = await app.json("POST", "/api/run-groups", { projectId: h.projectId, message: "m", agentIds: ["claude"] });
  expect(one.status).toBe(400);
  expect((await app.call("/api/run-groups/grp_nope")).status).toBe(404);
});
