// What a run changed: git's view in a work tree (no file cap, .gitignore respected, pre-existing edits not blamed on
// the run), a bounded walk elsewhere — both with unified diffs from content kept at the start.
import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parsePorcelainZ } from "../../server/projects/changes/git-status.ts";
import { trackChanges } from "../../server/projects/changes/tracker.ts";
import { runProbe, type ProbeRunner } from "../../server/runtimes/probe.ts";
import { tempDir } from "../support/temp.ts";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false", ...args], { cwd, stdio: "pipe" }).toString();

/** The real git, with the subcommand of every call it gets noted (argv[3]: `git -C DIR <subcommand>`). */
function recordingGit(): { asked: string[]; recording: ProbeRunner } {
  const asked: string[] = [];
  const recording: ProbeRunner = (argv, options) => {
    asked.push(argv[3]!);
    return runProbe(argv, options);
  };
  return { asked, recording };
}

function gitRepo(root: string, files: Record<string, string>): void {
  mkdirSync(root, { recursive: true });
  git(root, "init", "-q", "-b", "main");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "start");
}

describe("git status parsing", () => {
  test("entries, untracked files, and both sides of a rename", () => {
    expect(parsePorcelainZ(" M a.txt\0?? new dir/b c.txt\0R  to.txt\0from.txt\0")).toEqual([
      { path: "a.txt", index: " ", worktree: "M" },
      { path: "new dir/b c.txt", index: "?", worktree: "?" },
      { path: "to.txt", index: "R", worktree: " " },
      { path: "from.txt", index: "D", worktree: " " },
    ]);
    expect(parsePorcelainZ("")).toEqual([]);
  });
});

describe("change tracking in a git work tree", () => {
  test("created, modified and deleted files with diffs; ignored files, od's own and earlier edits left out", async () => {
    using temp = tempDir("od-changes-git-");
    const root = temp.path;
    gitRepo(root, { "src/app.ts": "export const a = 1;\nexport const b = 2;\n", "README.md": "# hi\n", "old.txt": "bye\n", ".gitignore": "dist/\n", "notes.txt": "one\n" });
    writeFileSync(join(root, "notes.txt"), "one\ntwo (the user's, before the run)\n"); // dirty before the run

    const tracker = await trackChanges(root);
    expect(tracker.source).toBe("git");
    writeFileSync(join(root, "src/app.ts"), "export const a = 1;\nexport const b = 3;\n");
    writeFileSync(join(root, "src/new.ts"), "export {};\n");
    rmSync(join(root, "old.txt"));
    mkdirSync(join(root, "dist"));
    writeFileSync(join(root, "dist/bundle.js"), "ignored");
    mkdirSync(join(root, ".od-skills/x"), { recursive: true });
    writeFileSync(join(root, ".od-skills/x/SKILL.md"), "staged by od");
    const changes = await tracker.finish();

    expect(changes.map((c) => [c.path, c.kind, c.additions, c.deletions])).toEqual([
      ["old.txt", "deleted", 0, 1],
      ["src/app.ts", "modified", 1, 1],
      ["src/new.ts", "created", 1, 0],
    ]);
    expect(changes[1]!.diff).toBe("--- a/src/app.ts\n+++ b/src/app.ts\n@@ -1,2 +1,2 @@\n export const a = 1;\n-export const b = 2;\n+export const b = 3;\n");
    expect(changes[0]!.diff).toStartWith("--- a/old.txt\n+++ /dev/null\n");
  });

  test("a file already edited before the run shows only what the run added", async () => {
    using temp = tempDir("od-changes-dirty-");
    gitRepo(temp.path, { "notes.txt": "one\n" });
    writeFileSync(join(temp.path, "notes.txt"), "one\ntwo\n");
    const tracker = await trackChanges(temp.path);
    await tracker.kept; // the dirty file's content before the run, read while the agent starts
    writeFileSync(join(temp.path, "notes.txt"), "one\ntwo\nthree\n");
    const [change] = await tracker.finish();
    expect(change!.diff).toBe("--- a/notes.txt\n+++ b/notes.txt\n@@ -1,2 +1,3 @@\n one\n two\n+three\n");
  });

  test("a project in a subfolder of a repository reports paths relative to the project", async () => {
    using temp = tempDir("od-changes-sub-");
    gitRepo(temp.path, { "site/index.html": "<p>a</p>\n", "other/x.txt": "x\n" });
    const project = join(temp.path, "site");
    const tracker = await trackChanges(project);
    writeFileSync(join(project, "index.html"), "<p>b</p>\n");
    writeFileSync(join(temp.path, "other/x.txt"), "changed outside the project\n");
    expect((await tracker.finish()).map((c) => c.path)).toEqual(["index.html"]);
  });

  test("before the run, git is asked once: the project's place in the work tree comes from where `.git` is", async () => {
    using temp = tempDir("od-changes-once-");
    gitRepo(temp.path, { "site/pages/index.html": "<p>a</p>\n" });
    const { asked, recording } = recordingGit();
    const project = join(temp.path, "site", "pages");
    const tracker = await trackChanges(project, { git: recording, env: { PATH: process.env.PATH } });
    expect(asked).toEqual(["status"]);
    writeFileSync(join(project, "index.html"), "<p>b</p>\n");
    expect((await tracker.finish()).map((c) => c.path)).toEqual(["index.html"]);
  });

  test("an empty `.git` folder (a sandbox's mount point) is no repository: git is not asked, and one above it still is", async () => {
    using temp = tempDir("od-changes-empty-git-");
    const plain = join(temp.path, "plain", "project");
    mkdirSync(join(temp.path, "plain", ".git"), { recursive: true });
    mkdirSync(plain, { recursive: true });
    writeFileSync(join(plain, "index.html"), "<p>a</p>\n");
    const outside = recordingGit();
    const walked = await trackChanges(plain, { git: outside.recording, env: { PATH: process.env.PATH } });
    expect(walked.source).toBe("walk");
    expect(outside.asked).toEqual([]);

    gitRepo(join(temp.path, "repo"), { "site/index.html": "<p>a</p>\n" });
    mkdirSync(join(temp.path, "repo", "site", ".git"));
    const inside = recordingGit();
    const project = join(temp.path, "repo", "site");
    const tracked = await trackChanges(project, { git: inside.recording, env: { PATH: process.env.PATH } });
    expect(tracked.source).toBe("git");
    expect(inside.asked).toEqual(["status"]);
    writeFileSync(join(project, "index.html"), "<p>b</p>\n");
    expect((await tracked.finish()).map((c) => c.path)).toEqual(["index.html"]);
  });

  test("with GIT_DIR or GIT_WORK_TREE set, git says where the project is", async () => {
    using temp = tempDir("od-changes-gitdir-");
    gitRepo(temp.path, { "site/index.html": "<p>a</p>\n" });
    const { asked, recording } = recordingGit();
    const env = { PATH: process.env.PATH, GIT_DIR: join(temp.path, ".git"), GIT_WORK_TREE: temp.path };
    const tracker = await trackChanges(join(temp.path, "site"), { git: recording, env });
    expect(asked).toEqual(["rev-parse", "status"]);
    writeFileSync(join(temp.path, "site", "index.html"), "<p>b</p>\n");
    expect((await tracker.finish()).map((c) => c.path)).toEqual(["index.html"]);
  });

  test("a project reached through a symlink reports its changes as git sees its folder", async () => {
    using temp = tempDir("od-changes-link-");
    gitRepo(join(temp.path, "repo"), { "site/index.html": "<p>a</p>\n" });
    symlinkSync(join(temp.path, "repo", "site"), join(temp.path, "repo", "link"));
    const project = join(temp.path, "repo", "link");
    const tracker = await trackChanges(project);
    expect(tracker.source).toBe("git");
    writeFileSync(join(project, "index.html"), "<p>b</p>\n");
    expect((await tracker.finish()).map((c) => c.path)).toEqual(["index.html"]);
  });

  test("no walk limits: changes past 5000 files and 8 folders deep are found", async () => {
    using temp = tempDir("od-changes-big-");
    const files: Record<string, string> = { "a/b/c/d/e/f/g/h/i/j/deep.txt": "deep\n" };
    for (let i = 0; i < 5001; i++) files[`pkg/m${i % 50}/f${i}.txt`] = `${i}\n`;
    gitRepo(temp.path, files);
    const tracker = await trackChanges(temp.path);
    writeFileSync(join(temp.path, "pkg/m0/f5000.txt"), "changed\n");
    writeFileSync(join(temp.path, "a/b/c/d/e/f/g/h/i/j/deep.txt"), "changed\n");
    expect((await tracker.finish()).map((c) => c.path)).toEqual(["a/b/c/d/e/f/g/h/i/j/deep.txt", "pkg/m0/f5000.txt"]);
  }, 60_000);

  test("looking writes nothing into .git: stale file stamps are not refreshed into the index (no index.lock taken)", async () => {
    using temp = tempDir("od-changes-nolock-");
    gitRepo(temp.path, { "a.txt": "a\n", "b.txt": "b\n" });
    // Same content, other stamps: a plain `git status` refreshes them and writes the index back under index.lock,
    // which fails a commit the agent or the user makes at that moment.
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(temp.path, "a.txt"), later, later);
    const index = () => readFileSync(join(temp.path, ".git", "index"));
    const before = index();
    const tracker = await trackChanges(temp.path, { env: { PATH: process.env.PATH } });
    utimesSync(join(temp.path, "b.txt"), later, later);
    writeFileSync(join(temp.path, "c.txt"), "c\n");
    expect((await tracker.finish()).map((c) => c.path)).toEqual(["c.txt"]);
    expect(index().equals(before)).toBe(true);
  });

  test("binary files are reported without a diff", async () => {
    using temp = tempDir("od-changes-bin-");
    gitRepo(temp.path, { "a.txt": "a\n" });
    const tracker = await trackChanges(temp.path);
    writeFileSync(join(temp.path, "logo.png"), new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
    expect(await tracker.finish()).toEqual([{ path: "logo.png", kind: "created", diff: null, additions: 0, deletions: 0, binary: true, omitted: "binary" }]);
  });
});

describe("change tracking outside git", () => {
  test("the walk finds created, modified and deleted files, with diffs from the content kept at the start", async () => {
    using temp = tempDir("od-changes-walk-");
    writeFileSync(join(temp.path, "a.txt"), "one\n");
    writeFileSync(join(temp.path, "gone.txt"), "bye\n");
    const tracker = await trackChanges(temp.path);
    expect(tracker.source).toBe("walk");
    await tracker.kept; // the content before the run, read while the agent starts
    await Bun.sleep(5); // a distinct mtime
    writeFileSync(join(temp.path, "a.txt"), "one\ntwo\n");
    writeFileSync(join(temp.path, "b.txt"), "new\n");
    rmSync(join(temp.path, "gone.txt"));
    const changes = await tracker.finish();
    expect(changes.map((c) => [c.path, c.kind])).toEqual([["a.txt", "modified"], ["b.txt", "created"], ["gone.txt", "deleted"]]);
    expect(changes[0]!.diff).toBe("--- a/a.txt\n+++ b/a.txt\n@@ -1,1 +1,2 @@\n one\n+two\n");
  });
});

describe("change tracking outside git, while the agent starts", () => {
  test("a file changed before its content was kept shows as changed without a diff, never with a wrong one", async () => {
    using temp = tempDir("od-changes-walk-early-");
    // Many files: their content is read after the tracker starts, newest first, so the oldest is read last.
    for (let i = 0; i < 300; i++) writeFileSync(join(temp.path, `f${i}.txt`), `file ${i}\n`);
    writeFileSync(join(temp.path, "early.txt"), "before\n");
    utimesSync(join(temp.path, "early.txt"), new Date(1_000_000), new Date(1_000_000));
    const tracker = await trackChanges(temp.path);
    // Changed at once, before the tracker can have read it (its reads need the event loop): its content then is unknown.
    writeFileSync(join(temp.path, "early.txt"), "after, a longer text\n");
    await tracker.kept;
    await Bun.sleep(5); // a distinct mtime
    writeFileSync(join(temp.path, "f0.txt"), "file 0\nand more\n");
    const changes = await tracker.finish();
    expect(changes.map((c) => [c.path, c.kind])).toEqual([["early.txt", "modified"], ["f0.txt", "modified"]]);
    expect(changes[0]!.diff).toBeNull();
    expect(changes[1]!.diff).toBe("--- a/f0.txt\n+++ b/f0.txt\n@@ -1,1 +1,2 @@\n file 0\n+and more\n");
  });
});

describe("change tracking in git, while the agent starts", () => {
  test("a file already dirty and then deleted before its content was kept is reported deleted, without a diff", async () => {
    using temp = tempDir("od-changes-git-early-");
    gitRepo(temp.path, { "kept.txt": "one\n" });
    writeFileSync(join(temp.path, "kept.txt"), "one\ndirty\n");
    writeFileSync(join(temp.path, "scratch.txt"), "untracked\n");
    const tracker = await trackChanges(temp.path);
    expect(tracker.source).toBe("git");
    // Gone at once, before the tracker can have read it: never taken for a file that was absent (and so unchanged).
    rmSync(join(temp.path, "scratch.txt"));
    await tracker.kept;
    writeFileSync(join(temp.path, "kept.txt"), "one\ndirty\nand the run's\n");
    const changes = await tracker.finish();
    expect(changes.map((c) => [c.path, c.kind])).toEqual([["kept.txt", "modified"], ["scratch.txt", "deleted"]]);
    expect(changes[0]!.diff).toBe("--- a/kept.txt\n+++ b/kept.txt\n@@ -1,2 +1,3 @@\n one\n dirty\n+and the run's\n");
    expect(changes[1]!.diff).toBeNull();
  });
});
