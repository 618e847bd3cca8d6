// Issues #21 and #36: diffs read the files where the project is. A fake CLI writes, edits and deletes files (hostile
// names among them) in a project on the test sshd and in a container of the test Docker engine — a git work tree and
// a plain folder — and GET /api/runs/:id/changes gives exactly what the same run gives in the same folder on this
// machine. Both share this machine's temp dir, so the same folder is set up here.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RunChangesResponse } from "../../server/contracts/changes.ts";
import type { RunEvent } from "../../server/contracts/runs.ts";
import { runChangeRoutes } from "../../server/http/run-changes.ts";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";
import { startTestApp } from "../support/app.ts";
import { endOf, fakeCliEnvThere, runHarness, type FakeStep } from "../support/fake-agents.ts";
import { machineKinds, onMachine, useTestMachines, type MachineKind } from "../support/test-machines.ts";
import { tempDir } from "../support/temp.ts";

// Each test starts and ends runs over a real ssh connection (a login, the run, its sweep there): seconds apiece on an
// idle machine, and several times that on a loaded 2-core one, where bun's 20 s default failed them at random.
setDefaultTimeout(60_000);

const machines = useTestMachines();
const [here, ...elsewhere] = machineKinds(machines);

const claude = getAgentDef("claude") as RuntimeAgentDef;
const TEXT = join(import.meta.dir, "..", "fixtures", "claude", "text.jsonl");
const HOSTILE = "it's $(touch pwned) `touch pwned2`; *\n-rf ünï.txt";
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false", ...args], { cwd, stdio: "pipe" });

function writeFiles(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

/** Runs `steps` (then a text answer) in `folder` as a project on `kind`; its saved changes. */
async function changesOfRun(folder: string, steps: FakeStep[], kind: MachineKind) {
  await using h = await runHarness({
    defs: [claude],
    shims: { claude: undefined },
    steps: [{ readLine: true }, ...steps, { outFile: TEXT }],
    projectDir: folder,
    ...onMachine(kind),
  });
  h.store.appConfig.update({ agentCliEnv: { claude: fakeCliEnvThere(h) } });
  const { runId, events } = await h.run({ agentId: "claude", message: "change things" });
  await using app = await startTestApp({ modules: [runChangeRoutes(h.store, h.reverter)] });
  const response = await app.call(`/api/runs/${runId}/changes`);
  expect(response.status).toBe(200);
  return { end: endOf(events), diagnostics: events.filter((e) => e.type === "diagnostic"), saved: RunChangesResponse.parse(await response.json()) };
}

/** The same run in two identical folders, one a project on this machine, one on `kind`. */
async function hereAndThere(kind: MachineKind, setUp: (root: string) => void, steps: FakeStep[]) {
  using temp = tempDir("od-remote-changes-");
  const localDir = join(temp.path, "local");
  const remoteDir = join(temp.path, "it's remote $(x)");
  for (const dir of [localDir, remoteDir]) {
    mkdirSync(dir);
    setUp(dir);
  }
  const local = await changesOfRun(localDir, steps, here!);
  const remote = await changesOfRun(remoteDir, steps, kind);
  expect(remote.diagnostics).toEqual([]);
  expect(remote.end.status).toBe("succeeded");
  expect(remote.end.files).toEqual(local.end.files);
  return { local: local.saved, remote: remote.saved };
}

const EDITS: FakeStep[] = [
  { writeFile: { path: "src/app.ts", content: "export const a = 1;\nexport const b = 3;\n" } },
  { writeFile: { path: "notes.txt", content: "one\ntwo (the user's, before the run)\nthree\n" } },
  { writeFile: { path: `new dir/${HOSTILE}`, content: "hostile\n" } },
  { writeFile: { path: "-n", content: "dash\n" } },
  { writeFile: { path: `deep/${"a-long-name-".repeat(12)}.txt`, content: "past tar's 100-byte name field\n" } },
  { writeFile: { path: "logo.png", content: "\u0089PNG\u0000\u0001" } },
  { writeFile: { path: "dist/bundle.js", content: "ignored by git\n" } },
  { writeFile: { path: ".od-skills/x/SKILL.md", content: "od's own\n" } },
  { removeFile: "old.txt" },
];

/** Every file below `root` (`.git` left out) with its text. */
function folderFiles(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name).slice(root.length + 1);
    if (!path.startsWith(".git/")) files[path] = readFileSync(join(root, path), "utf8");
  }
  return files;
}

describe.each(elsewhere.map((kind) => [kind.name, kind] as const))("changes of a run in a project on %s", (_name, kind) => {
  test("revert puts a run's text changes back there, hostile names included; a file changed since refuses it", async () => {
    using temp = tempDir("od-remote-revert-");
    const folder = join(temp.path, "it's remote $(x)");
    const before = { "src/app.ts": "export const a = 1;\nexport const b = 2;\n", "old.txt": "bye\n", [`sub/${HOSTILE}`]: "hostile before\n" };
    mkdirSync(folder);
    writeFiles(folder, before);
    git(folder, "init", "-q");
    git(folder, "add", "-A");
    git(folder, "commit", "-q", "-m", "start");
    await using h = await runHarness({
      defs: [claude],
      shims: { claude: undefined },
      steps: [
        { readLine: true },
        { writeFile: { path: "src/app.ts", content: "export const a = 1;\nexport const b = 3;\n" } },
        { writeFile: { path: `sub/${HOSTILE}`, content: "hostile after\n" } },
        { writeFile: { path: `new dir/${HOSTILE}`, content: "created\n" } },
        { removeFile: "old.txt" },
        { outFile: TEXT },
      ],
      projectDir: folder,
      ...onMachine(kind),
    });
    h.store.appConfig.update({ agentCliEnv: { claude: fakeCliEnvThere(h) } });
    const { runId, events } = await h.run({ agentId: "claude", message: "change things" });
    expect(endOf(events).status).toBe("succeeded");
    await using app = await startTestApp({ modules: [runChangeRoutes(h.store, h.reverter)] });
    const post = { method: "POST", body: "{}", headers: { "content-type": "application/json" } };

    writeFileSync(join(folder, "src/app.ts"), "export const a = 1;\nexport const b = 4;\n");
    const refused = await app.call(`/api/runs/${runId}/revert`, post);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { paths: string[] } }).error.paths).toEqual(["src/app.ts"]);
    expect(existsSync(join(folder, "old.txt"))).toBe(false);

    writeFileSync(join(folder, "src/app.ts"), "export const a = 1;\nexport const b = 3;\n");
    const reverted = await app.call(`/api/runs/${runId}/revert`, post);
    expect(reverted.status).toBe(200);
    expect(folderFiles(folder)).toEqual(before);
  });

  test("a git work tree: created, modified, deleted, binary and hostile names, with the diffs a local run gives", async () => {
    const { local, remote } = await hereAndThere(kind, (root) => {
      writeFiles(root, { "src/app.ts": "export const a = 1;\nexport const b = 2;\n", "old.txt": "bye\n", "notes.txt": "one\n", ".gitignore": "dist/\n" });
      git(root, "init", "-q");
      git(root, "add", "-A");
      git(root, "commit", "-q", "-m", "start");
      writeFileSync(join(root, "notes.txt"), "one\ntwo (the user's, before the run)\n"); // dirty before the run
    }, EDITS);
    expect(remote.source).toBe("git");
    expect(remote.changes.map((c) => [c.path, c.kind, c.additions, c.deletions, c.binary])).toEqual([
      ["-n", "created", 1, 0, false],
      [`deep/${"a-long-name-".repeat(12)}.txt`, "created", 1, 0, false],
      ["logo.png", "created", 0, 0, true],
      [`new dir/${HOSTILE}`, "created", 1, 0, false],
      ["notes.txt", "modified", 1, 0, false],
      ["old.txt", "deleted", 0, 1, false],
      ["src/app.ts", "modified", 1, 1, false],
    ]);
    expect(remote.changes.find((c) => c.path === "notes.txt")!.diff).toBe("--- a/notes.txt\n+++ b/notes.txt\n@@ -1,2 +1,3 @@\n one\n two (the user's, before the run)\n+three\n");
    expect(remote).toEqual(local);
  });

  test("a project in a subfolder of a work tree reports project-relative paths, the rest of the tree left out", async () => {
    const { local, remote } = await hereAndThere(kind, (root) => {
      writeFiles(root, { "site/index.html": "<p>a</p>\n", "other/x.txt": "x\n" });
      git(root, "init", "-q");
      git(root, "add", "-A");
      git(root, "commit", "-q", "-m", "start");
    }, [{ writeFile: { path: "index.html", content: "<p>b</p>\n" } }, { writeFile: { path: "../other/x.txt", content: "outside\n" } }]);
    expect(remote.changes.map((c) => c.path)).toEqual(["index.html"]);
    expect(remote).toEqual(local);
  });

  test("a plain folder: the bounded walk finds the same changes, with diffs from content kept at the start", async () => {
    const big = "x".repeat(1024 * 1024 + 10);
    const { local, remote } = await hereAndThere(kind, (root) => {
      writeFiles(root, { "src/app.ts": "export const a = 1;\nexport const b = 2;\n", "old.txt": "bye\n", "notes.txt": "one\n", [HOSTILE]: "before\n", "big.log": big });
    }, [...EDITS, { writeFile: { path: HOSTILE, content: "before\nafter\n" } }, { writeFile: { path: "big.log", content: `${big}y` } }]);
    expect(remote.source).toBe("walk");
    expect(remote.changes.map((c) => [c.path, c.kind, c.diff === null ? c.omitted : c.additions])).toEqual([
      ["-n", "created", 1],
      ["big.log", "modified", "too-large"],
      [`deep/${"a-long-name-".repeat(12)}.txt`, "created", 1],
      ["dist/bundle.js", "created", 1],
      [HOSTILE, "modified", 1],
      ["logo.png", "created", "binary"],
      [`new dir/${HOSTILE}`, "created", 1],
      ["notes.txt", "modified", 2],
      ["old.txt", "deleted", 0],
      ["src/app.ts", "modified", 1],
    ]);
    expect(remote).toEqual(local);
  });

  test("a snapshot that cannot be taken is a diagnostic: the run still succeeds, with no changes recorded", async () => {
    using temp = tempDir("od-remote-changes-gone-");
    const folder = join(temp.path, "project");
    const go = join(temp.path, "go");
    mkdirSync(folder);
    writeFileSync(join(folder, "a.txt"), "a\n");
    await using h = await runHarness({
      defs: [claude],
      shims: { claude: undefined },
      steps: [{ readLine: true }, { writeFile: { path: "b.txt", content: "b\n" } }, { waitForFile: go }, { outFile: TEXT }],
      projectDir: folder,
      ...onMachine(kind),
    });
    h.store.appConfig.update({ agentCliEnv: { claude: fakeCliEnvThere(h) } });
    const created = await h.service.create({ projectId: h.projectId, agentId: "claude", message: "hi" });
    while (!existsSync(join(folder, "b.txt"))) await Bun.sleep(20);
    rmSync(folder, { recursive: true });
    writeFileSync(go, "");
    const events: RunEvent[] = [];
    for await (const event of h.service.events(created.runId)) events.push(event);
    expect(endOf(events).status).toBe("succeeded");
    // Only the changes' diagnostics: on a loaded machine the container may also miss the end-of-run sweep's 1 s
    // deadline (a cleanup_pending diagnostic, which another suite covers), as a clean-clone CI run once saw.
    expect(events.filter((e) => e.type === "diagnostic" && e.kind !== "cleanup_pending")).toEqual([
      expect.objectContaining({ kind: "remote_changes", message: expect.stringContaining("(the folder is missing)") }),
    ]);
    expect(h.store.runChanges.list(created.runId).changes).toEqual([]);
  });
});
