// The data dir is private to its owner: 0700, with od.db (and its WAL files) and every file and folder in it, all the
// way down, 0600/0700 — what od makes there itself, and what it finds loosened by someone else (and says so).
import { describe, expect, test } from "bun:test";
import { chmodSync, chownSync, lstatSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { startDaemon, type HttpServe } from "../server/daemon.ts";
import { remoteUploadsRoot } from "../server/inputs/upload-root.ts";
import { storeUpload } from "../server/inputs/uploads.ts";
import { writeMcpFile } from "../server/mcp/config-files.ts";
import { dataPaths } from "../server/paths.ts";
import { openBunSqlite } from "../server/platform/sqlite-bun.ts";
import { preparePrivateDataDir, tightenedNotice } from "../server/private-data-dir.ts";
import { ProjectService } from "../server/projects/project-service.ts";
import { materializeBundledSkills } from "../server/skills/bundled-root.ts";
import { SkillLibrary } from "../server/skills/library.ts";
import { Store } from "../server/store/store.ts";
import { otherUser } from "./support/other-user.ts";
import { tempDir } from "./support/temp.ts";

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

/** Every path under `dir` (not through symlinks, not inside `skip` folders) that group or others can use. */
function loosePaths(dir: string, skip: string[] = []): string[] {
  const loose: string[] = [];
  const walk = (path: string) => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return;
    if (stat.mode & 0o077) loose.push(`${relative(dir, path) || "."} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory() && !skip.includes(path)) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(dir);
  return loose;
}

/** The distinct kinds and modes of everything under `dir` (symlinks aside), e.g. `["dir 700", "file 600"]`. */
function modesUnder(dir: string): string[] {
  const seen = new Set<string>();
  const walk = (path: string) => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return;
    seen.add(`${stat.isDirectory() ? "dir" : "file"} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(dir);
  return [...seen].sort();
}

/** A 1×1 PNG (an upload must be an image). */
const PNG = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="), (c) => c.charCodeAt(0));
const noServe: HttpServe = () => ({ port: 40124, stop: async () => {} });

/** Starts a daemon on `dataDir` under umask 022; the dir must end 0700 and od.db with its WAL files 0600. */
async function expectDaemonLeavesItPrivate(dataDir: string): Promise<void> {
  const previous = process.umask(0o022);
  try {
    const daemon = await startDaemon({ port: 0, host: "127.0.0.1", dataDir, token: "t", openSqlite: openBunSqlite, serve: noServe, env: { PATH: "/nonexistent" } });
    await daemon.ready;
    expect(mode(dataDir)).toBe("700");
    for (const file of ["od.db", "od.db-wal", "od.db-shm"]) expect([file, mode(join(dataDir, file))]).toEqual([file, "600"]);
    await daemon.stop();
  } finally {
    process.umask(previous);
  }
}

describe("private data dir", () => {
  test("a new data dir is 0700 and od.db, -wal and -shm are 0600 whatever the umask", async () => {
    using temp = tempDir("od-private-");
    const dataDir = join(temp.path, "data");
    await expectDaemonLeavesItPrivate(dataDir);
  });

  test("an existing world-readable data dir is tightened, and each change is reported", () => {
    using temp = tempDir("od-private-old-");
    const dataDir = join(temp.path, "data");
    mkdirSync(join(dataDir, "skills"), { recursive: true });
    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, "skills"), 0o755);
    writeFileSync(join(dataDir, "agents.local.json"), "[]", { mode: 0o644 });
    const store = Store.open(join(dataDir, "od.db"), openBunSqlite);
    store.close();
    chmodSync(join(dataDir, "od.db"), 0o644);
    const changes = preparePrivateDataDir(dataDir);
    expect(changes).toHaveLength(4);
    expect(changes.join("\n")).toContain("od.db: 644 → 600");
    expect([mode(dataDir), mode(join(dataDir, "skills")), mode(join(dataDir, "agents.local.json")), mode(join(dataDir, "od.db"))]).toEqual(["700", "700", "600", "600"]);
    expect(preparePrivateDataDir(dataDir)).toEqual([]); // nothing left to tighten
  });

  test("files and folders nested in a loosened data dir are tightened too, never through a symlink", () => {
    using temp = tempDir("od-private-nested-");
    const dataDir = join(temp.path, "data");
    const outside = join(temp.path, "outside.txt");
    writeFileSync(outside, "not od's", { mode: 0o644 });
    mkdirSync(join(dataDir, "skills", "deck", "scripts"), { recursive: true, mode: 0o755 });
    writeFileSync(join(dataDir, "skills", "deck", "SKILL.md"), "---\nname: deck\n---\nbody", { mode: 0o644 });
    writeFileSync(join(dataDir, "skills", "deck", "scripts", "build.sh"), "#!/bin/sh\n", { mode: 0o755 });
    mkdirSync(join(dataDir, "run-output"), { mode: 0o777 });
    writeFileSync(join(dataDir, "run-output", "run_1.txt"), "answer", { mode: 0o666 });
    symlinkSync(outside, join(dataDir, "skills", "deck", "link.txt"));
    // A project folder's own files are the agent's (its umask); the folder around them is what keeps others out.
    mkdirSync(join(dataDir, "projects", "demo"), { recursive: true, mode: 0o755 });
    writeFileSync(join(dataDir, "projects", "demo", "index.html"), "<p>", { mode: 0o644 });
    for (const dir of [dataDir, join(dataDir, "skills"), join(dataDir, "projects")]) chmodSync(dir, 0o755);

    const changes = preparePrivateDataDir(dataDir);
    expect(loosePaths(dataDir, [join(dataDir, "projects", "demo")])).toEqual([]);
    expect(mode(join(dataDir, "skills", "deck", "scripts", "build.sh"))).toBe("700"); // the owner keeps its x bit
    expect(mode(join(dataDir, "run-output", "run_1.txt"))).toBe("600");
    expect(mode(outside)).toBe("644");
    expect(mode(join(dataDir, "projects", "demo"))).toBe("700");
    expect(mode(join(dataDir, "projects", "demo", "index.html"))).toBe("644");
    expect(changes.join("\n")).toContain(`${join(dataDir, "skills", "deck", "SKILL.md")}: 644 → 600`);
    expect(changes).toHaveLength(10);
    expect(tightenedNotice(changes)).not.toContain("and ");
    expect(tightenedNotice([...changes, "x", "y"])).toEndWith(" and 2 more\n");
    expect(preparePrivateDataDir(dataDir)).toEqual([]);
  });

  // An isolated run's worktree (worktrees/<project id>/<run>) is the agent's working folder like a project's: the files
  // it writes there with its umask (an npm install: thousands) are neither walked at every start nor reported.
  test("an isolated run's worktree keeps the agent's modes; the folders around it are tightened", () => {
    using temp = tempDir("od-private-worktree-");
    const dataDir = join(temp.path, "data");
    expect(preparePrivateDataDir(dataDir)).toEqual([]);
    const projectWorktrees = join(dataPaths(dataDir).worktrees, "prj_1");
    const worktree = join(projectWorktrees, "run-a");
    mkdirSync(join(worktree, "node_modules", "left-pad"), { recursive: true, mode: 0o700 });
    writeFileSync(join(worktree, "node_modules", "left-pad", "index.js"), "module.exports = 1;", { mode: 0o644 });
    writeFileSync(join(worktree, "build.sh"), "#!/bin/sh\n", { mode: 0o755 });
    chmodSync(join(worktree, "node_modules"), 0o755);
    // What the next start finds after the run: nothing of od's is loose, so nothing is said.
    expect(preparePrivateDataDir(dataDir)).toEqual([]);
    expect(mode(join(worktree, "build.sh"))).toBe("755");
    expect(mode(join(worktree, "node_modules", "left-pad", "index.js"))).toBe("644");
    // The folders od makes around the worktrees are still tightened when someone loosened them.
    chmodSync(projectWorktrees, 0o755);
    chmodSync(dataPaths(dataDir).worktrees, 0o755);
    const changes = preparePrivateDataDir(dataDir);
    expect(changes).toEqual([`${dataPaths(dataDir).worktrees}: 755 → 700`, `${projectWorktrees}: 755 → 700`]);
    expect(mode(join(worktree, "node_modules"))).toBe("755");
  });

  test("a file another user put in a loosened folder is tightened, and the notice says whose it is", () => {
    const other = otherUser();
    using temp = tempDir("od-private-other-");
    chmodSync(temp.path, 0o711);
    const dataDir = join(temp.path, "data");
    mkdirSync(join(dataDir, "skills"), { recursive: true, mode: 0o700 });
    chmodSync(join(dataDir, "skills"), 0o777);
    chmodSync(dataDir, 0o711);
    const planted = join(dataDir, "skills", "notes.md");
    expect(other.run(["sh", "-c", 'umask 0; echo hi > "$1"', "sh", planted]).code).toBe(0);
    const changes = preparePrivateDataDir(dataDir);
    expect(changes).toContain(`${planted}: 666 → 600 (owned by uid ${other.uid})`);
    expect(loosePaths(dataDir)).toEqual([]);
    expect(other.run(["cat", planted]).code).not.toBe(0);
  });

  test("a folder od cannot look inside (mode 000) is reported, not a failed start", () => {
    const other = otherUser();
    using temp = tempDir("od-private-locked-");
    chmodSync(temp.path, 0o711);
    const home = join(temp.path, "home");
    mkdirSync(home);
    chownSync(home, other.uid, -1);
    const dataDir = join(home, "data");
    // As that account: root reads any folder, and this is about the one the owner locked itself out of.
    expect(other.run(["sh", "-c", 'mkdir -p "$1/skills/locked" && chmod 000 "$1/skills/locked"', "sh", dataDir]).code).toBe(0);
    const module = join(import.meta.dir, "..", "server", "private-data-dir.ts");
    const script = `const { preparePrivateDataDir } = await import(${JSON.stringify(module)}); console.log(JSON.stringify(preparePrivateDataDir(${JSON.stringify(dataDir)})));`;
    const result = other.run(["env", "BUN_RUNTIME_TRANSPILER_CACHE_PATH=0", process.execPath, "-e", script]);
    expect([result.code, result.stderr]).toEqual([0, ""]);
    expect(JSON.parse(result.stdout)).toContain(`${join(dataDir, "skills", "locked")}: could not look inside (EACCES)`);
  });

  test("what od makes in its data dir is private from the start, so the next start has nothing to warn about", async () => {
    using temp = tempDir("od-private-own-");
    const dataDir = join(temp.path, "data");
    const previous = process.umask(0o022);
    try {
      expect(preparePrivateDataDir(dataDir)).toEqual([]);
      const paths = dataPaths(dataDir);
      const store = Store.open(paths.database, openBunSqlite);
      try {
        const project = new ProjectService(store, dataDir).create("Demo");
        new SkillLibrary({ bundled: () => undefined, user: paths.skills }).importSkill({ name: "deck", body: "Make slides." });
        const bundledSource = join(temp.path, "SKILL.md");
        writeFileSync(bundledSource, "---\nname: b\n---\nbody");
        materializeBundledSkills({ version: "0123456789ab", files: { "b/SKILL.md": bundledSource } }, join(dataDir, "bundled-skills"));
        storeUpload(remoteUploadsRoot(paths.remoteUploads, "proj_1"), "shot.png", PNG);
        writeMcpFile(paths.mcp, { servers: [] });
        expect(loosePaths(dataDir)).toEqual([]);
        expect(modesUnder(dataDir)).toEqual(["dir 700", "file 600"]);
        expect(mode(project.path)).toBe("700");
      } finally {
        store.close();
      }
      expect(preparePrivateDataDir(dataDir)).toEqual([]);
    } finally {
      process.umask(previous);
    }
  });

  test("a daemon started on an old world-readable data dir (od.db opened before node:fs loads) tightens it, the WAL files too", async () => {
    using temp = tempDir("od-private-daemon-old-");
    const dataDir = join(temp.path, "data");
    Store.open(join(dataDir, "od.db"), openBunSqlite).close();
    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, "od.db"), 0o644);
    await expectDaemonLeavesItPrivate(dataDir);
  });
});
