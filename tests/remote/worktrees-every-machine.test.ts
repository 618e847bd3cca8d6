// Issue #38: isolated runs wherever the project is — this machine, an ssh host (the test sshd) and a container (the
// test Docker engine) — with git on that side. Two isolated runs write the same file: the checkout is untouched, each
// run's changes are its worktree's, a follow-up works in the same worktree; one is applied (the checkout's file is
// its content), the other discarded (its branch gone); a conflict leaves the checkout as it was; a folder outside git
// is 400 NOT_A_GIT_REPOSITORY. The project folders are in this machine's temp dir, which all three share.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { OdError } from "../../server/errors.ts";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";
import { fakeCliEnvThere, runHarness } from "../support/fake-agents.ts";
import { machineKinds, onMachine, useTestMachines, type MachineKind } from "../support/test-machines.ts";
import { tempDir } from "../support/temp.ts";

setDefaultTimeout(90_000);

const machines = useTestMachines();

const claude = getAgentDef("claude") as RuntimeAgentDef;
const TEXT = join(import.meta.dir, "..", "fixtures", "claude", "text.jsonl");
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false", ...args], { cwd, encoding: "utf8", stdio: "pipe" });

async function harnessOn(kind: MachineKind, folder: string) {
  const h = await runHarness({
    defs: [claude],
    shims: { claude: undefined },
    steps: [{ readLine: true }, { writeFile: { path: "shared.txt", content: "{{PROMPT}}\n" } }, { outFile: TEXT }],
    projectDir: folder,
    ...onMachine(kind),
  });
  h.store.appConfig.update({ agentCliEnv: { claude: fakeCliEnvThere(h) } });
  return h;
}

function repoIn(root: string): string {
  const folder = join(root, "it's a repo $(x)");
  mkdirSync(folder);
  writeFileSync(join(folder, "shared.txt"), "base\n");
  git(folder, "init", "-q");
  git(folder, "add", "-A");
  git(folder, "commit", "-q", "-m", "start");
  writeFileSync(join(folder, "wip.txt"), "not committed\n");
  return folder;
}

describe.each(machineKinds(machines).map((kind) => [kind.name, kind] as const))("isolated runs in a project on %s", (_name, kind) => {
  test("two runs, one file: the checkout untouched; follow-up, apply, discard and a conflict there", async () => {
    using temp = tempDir("od-wt-machine-");
    const folder = repoIn(temp.path);
    const before = { status: git(folder, "status", "--porcelain"), head: git(folder, "rev-parse", "HEAD") };
    await using h = await harnessOn(kind, folder);

    const [left, right] = await Promise.all(["left", "right"].map((message) => h.run({ agentId: "claude", message, isolation: "worktree" })));
    for (const run of [left!, right!]) expect(run.events.at(-1)).toMatchObject({ type: "end", status: "succeeded" });
    expect({ status: git(folder, "status", "--porcelain"), head: git(folder, "rev-parse", "HEAD") }).toEqual(before);
    const summaries = [left!, right!].map((run) => h.service.get(run.runId)!);
    expect(summaries.map((s) => s.isolation)).toEqual(["worktree", "worktree"]);
    expect(summaries[0]!.worktree!.folder).not.toBe(summaries[1]!.worktree!.folder);
    expect(summaries[0]!.worktree!.carriedPaths).toBe(1);
    const diffs = [left!, right!].map((run) => h.store.runChanges.list(run.runId).changes.map((c) => [c.path, c.kind, c.diff]));
    expect(diffs).toEqual([
      [["shared.txt", "modified", "--- a/shared.txt\n+++ b/shared.txt\n@@ -1,1 +1,1 @@\n-base\n+left\n"]],
      [["shared.txt", "modified", "--- a/shared.txt\n+++ b/shared.txt\n@@ -1,1 +1,1 @@\n-base\n+right\n"]],
    ]);

    // A follow-up in the left conversation works in its worktree and adds to its changes.
    h.script([{ readLine: true }, { writeFile: { path: "more.txt", content: "more\n" } }, { outFile: TEXT }]);
    const follow = await h.run({ agentId: "claude", message: "more", conversationId: left!.conversationId });
    expect(h.service.get(follow.runId)!.worktree!.folder).toBe(summaries[0]!.worktree!.folder);
    expect(h.store.runChanges.list(follow.runId).changes.map((c) => c.path)).toEqual(["more.txt", "shared.txt"]);

    // The person edits the file meanwhile: applying the right run conflicts, and changes nothing.
    writeFileSync(join(folder, "shared.txt"), "the person's\n");
    const edited = git(folder, "status", "--porcelain");
    const conflict = await h.worktrees.apply(right!.runId, { mode: "uncommitted" }).catch((error: OdError) => error);
    expect(conflict).toMatchObject({ code: "APPLY_CONFLICT", paths: ["shared.txt"] });
    expect(git(folder, "status", "--porcelain")).toBe(edited);
    expect(readFileSync(join(folder, "shared.txt"), "utf8")).toBe("the person's\n");

    git(folder, "checkout", "-q", "--", "shared.txt");
    const applied = await h.worktrees.apply(follow.runId, { mode: "commit", message: "Take the left run" });
    expect(applied.files).toEqual(["more.txt", "shared.txt"]);
    expect(readFileSync(join(folder, "shared.txt"), "utf8")).toBe("left\n");
    expect(git(folder, "log", "-1", "--format=%s").trim()).toBe("Take the left run");
    expect(git(folder, "status", "--porcelain")).toBe("?? wip.txt\n");

    const discarded = await h.worktrees.discard(right!.runId);
    expect(discarded.branchDeleted).toBe(true);
    expect(git(folder, "branch", "--list", "od/*", "--format=%(refname:short)").trim()).toBe(summaries[0]!.worktree!.branch);
    const listed = await h.worktrees.list(h.store.projects.get(h.projectId)!);
    expect(listed.map((w) => [w.branch, w.state, w.exists])).toEqual([[summaries[0]!.worktree!.branch, "applied", true]]);
  });

  test("a folder outside git is refused with NOT_A_GIT_REPOSITORY", async () => {
    using temp = tempDir("od-wt-machine-plain-");
    await using h = await harnessOn(kind, temp.path);
    const refused = await h.service.create({ projectId: h.projectId, agentId: "claude", message: "x", isolation: "worktree" }).catch((error: OdError) => error);
    expect(refused).toMatchObject({ kind: "invalid", code: "NOT_A_GIT_REPOSITORY" });
    expect((refused as OdError).message).toContain("is not in a git repository");
  });
});
