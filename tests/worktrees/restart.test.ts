// Issue #38: a daemon killed while an isolated run works leaves its worktree consistent: the next daemon ends the run
// as interrupted, lists the worktree with what the agent had written, and applies it.
import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RunSummary } from "../../server/contracts/runs.ts";
import { ProjectWorktreesResponse } from "../../server/contracts/worktrees.ts";
import { fakeAgentWorld } from "../support/fake-agent-daemon.ts";
import { killSurvivors } from "../support/survivors.ts";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false", ...args], { cwd, encoding: "utf8", stdio: "pipe" });

async function until<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test("kill -9 mid-run: the next daemon ends the run, lists its worktree and applies it", async () => {
  using world = fakeAgentWorld([{ readAll: true }, { writeFile: { path: "draft.md", content: "half done\n" } }, { out: '{"type":"assistant.turn_start","data":{}}' }, { hang: true }], { OD_CHAT_RUN_CANCEL_GRACE_MS: "300" });
  writeFileSync(join(world.projectDir, "README.md"), "# world\n");
  git(world.projectDir, "init", "-q");
  git(world.projectDir, "add", "-A");
  git(world.projectDir, "commit", "-q", "-m", "start");
  const json = async <T>(response: Promise<Response>) => (await (await response).json()) as T;
  const first = await world.start();
  let runId: string | undefined;
  let second: Awaited<ReturnType<typeof world.start>> | undefined;
  try {
    const { project } = await json<{ project: { id: string } }>(world.api(first, "/api/projects", { method: "POST", body: JSON.stringify({ name: "world", path: world.projectDir }) }));
    const created = await json<{ runId: string }>(world.api(first, "/api/runs", { method: "POST", body: JSON.stringify({ projectId: project.id, agentId: "copilot", message: "draft it", isolation: "worktree" }) }));
    runId = created.runId;
    const folder = await until(async () => {
      const run = await json<RunSummary>(world.api(first, `/api/runs/${runId}`));
      return run.worktree && existsSync(join(run.worktree.folder, "draft.md")) ? run.worktree.folder : undefined;
    }, "the agent's write in its worktree");
    process.kill(first.child.pid!, "SIGKILL");
    await first.child.exited;

    second = await world.start();
    const run = await json<RunSummary>(world.api(second, `/api/runs/${runId}`));
    expect(run.status).toBe("failed");
    expect(run.failureDetail).toBe("daemon_restart");
    const { worktrees } = ProjectWorktreesResponse.parse(await json(world.api(second, `/api/projects/${project.id}/worktrees`)));
    expect(worktrees.map((w) => [w.folder, w.runId, w.runStatus, w.exists, w.state])).toEqual([[folder, runId, "failed", true, "active"]]);
    expect(git(world.projectDir, "worktree", "list")).toContain(folder);
    const applied = await world.api(second, `/api/runs/${runId}/apply`, { method: "POST", body: "{}" });
    expect(applied.status).toBe(200);
    expect(readFileSync(join(world.projectDir, "draft.md"), "utf8")).toBe("half done\n");
  } finally {
    await second?.stop();
    await first.stop();
    killSurvivors(world.ledgerPath, runId ? [runId] : []);
  }
}, 90_000);
