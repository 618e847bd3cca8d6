// scripts/test.sh (`npm test`) with stand-in bun and tsc: which parts run, that the install overlaps the other suites,
// that the closing line sums every bun test process, and that any failing part fails the run.
import { describe, expect, test } from "bun:test";
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnChild } from "../../server/platform/process.ts";
import { tempDir } from "../support/temp.ts";

const SCRIPT = join(import.meta.dir, "..", "..", "scripts", "test.sh");

/**
 * A stand-in `bun`: `run` (the web build) succeeds; `tests/realcli/setup.ts` (the install) marks that it started and
 * exits $INSTALL_RC; `test` logs its arguments and prints bun's count lines. The main part waits (at most 30 s) for
 * the install to have started, so it passes only when the two really run at the same time.
 */
const FAKE_BUN = `#!/usr/bin/env bash
here="$(dirname "$0")/../.."
case "$1" in
  run) echo "web bundle written" >&2 ;;
  tests/realcli/setup.ts) touch "$here/install.started"; echo "install" >>"$here/calls.log"
    echo "real CLIs: installing 2 packages into /x/.cache with npm: a@1.0.0, b@2.0.0"
    echo "real CLIs: 12 MB on disk so far (15 s)"
    sleep 0.5
    echo "install ended" >>"$here/calls.log"
    if [ "\${INSTALL_RC:-0}" = 0 ]; then echo "real CLIs: installed 2 packages, 2.3 GB, in 312 s into /x/.cache"
    else echo "real CLIs: failed: npm install of the real CLIs into /x/.cache failed (exit 1): ENOSPC" >&2; fi
    exit "\${INSTALL_RC:-0}" ;;
  test) shift; echo "test $*" >>"$here/calls.log"
    if [ -n "\${CONCURRENT_LOG:-}" ]; then
      lane=other; case "$*" in *./tests/remote/*) lane=remote ;; esac
      touch "$here/running.$lane.$$"; trap 'rm -f "$here/running.$lane.$$"' EXIT
      # Both counts from one listing: two would let a part end between them and miscount.
      running=$(ls "$here" | grep '^running\.')
      echo "running $(echo "$running" | wc -l) $(echo "$running" | grep -c '^running\.remote\.')" >>"$here/calls.log"
    fi
    if [ -n "\${FAST:-}" ]; then
      # A shard of the inner loop: passes only when the other shard is running at the same time.
      touch "$here/shard.$$"
      for _ in $(seq 100); do [ "$(ls "$here"/shard.* | wc -l)" -ge 2 ] && break; sleep 0.1; done
      if [ "$(ls "$here"/shard.* | wc -l)" -ge 2 ]; then printf ' %s pass\n 0 fail\n' "\${SHARD_PASS:-10}"; else printf ' 0 pass\n 1 fail\n'; exit 1; fi
      exit 0
    fi
    case "$*" in
      *./tests/realcli/*) printf ' %s pass\\n %s fail\\n' "\${REAL_PASS:-45}" "\${REAL_FAIL:-0}"; [ "\${REAL_FAIL:-0}" = 0 ] ;;
      *)
        for _ in $(seq 300); do [ -f "$here/install.started" ] && break; sleep 0.1; done
        sleep "\${MAIN_DELAY:-0}"
        if [ -f "$here/install.started" ]; then printf ' %s pass\\n 0 fail\\n' "\${MAIN_PASS:-100}"
        else printf ' 0 pass\\n 1 fail\\n'; exit 1; fi ;;
    esac ;;
esac
`;

/** Test files for the stand-in run: two of the main part (so two shards) and one real-CLI file. */
const DEFAULT_FILES = ["tests/a.test.ts", "tests/remote/c.test.ts", "tests/realcli/r.test.ts"];

/** Runs scripts/test.sh in a temp copy of the tree; `costs` is its scripts/test-costs.txt (none when absent). */
async function runTestScript(env: Record<string, string>, args: string[] = [], files: string[] = DEFAULT_FILES, costs?: string) {
  const dir = tempDir("od-test-sh-");
  const root = dir.path;
  mkdirSync(join(root, "scripts"));
  mkdirSync(join(root, "node_modules", ".bin"), { recursive: true });
  copyFileSync(SCRIPT, join(root, "scripts", "test.sh"));
  writeFileSync(join(root, "node_modules", ".bin", "bun"), FAKE_BUN);
  if (costs !== undefined) writeFileSync(join(root, "scripts", "test-costs.txt"), costs);
  writeFileSync(join(root, "node_modules", ".bin", "tsc"), '#!/bin/sh\n[ "${TSC_RC:-0}" = 0 ] || echo "a.ts(1,1): error TS2322: nope"\nexit "${TSC_RC:-0}"\n');
  for (const tool of ["bun", "tsc"]) chmodSync(join(root, "node_modules", ".bin", tool), 0o755);
  writeFileSync(join(root, "calls.log"), "");
  for (const file of files) {
    mkdirSync(join(root, file, ".."), { recursive: true });
    writeFileSync(join(root, file), `// ${file}\n`.repeat(files.indexOf(file) + 1));
  }

  const child = await spawnChild({ argv: ["bash", join(root, "scripts", "test.sh"), ...args], cwd: root, env: { ...process.env, ...env }, stdin: "ignore", ownProcessGroup: true });
  const decoder = new TextDecoder();
  let output = "";
  const collect = async (stream: AsyncIterable<Uint8Array>) => {
    for await (const chunk of stream) output += decoder.decode(chunk, { stream: true });
  };
  const [exit] = await Promise.all([child.exited, collect(child.stdout), collect(child.stderr)]);
  const calls = readFileSync(join(root, "calls.log"), "utf8").trim().split("\n").filter(Boolean);
  const lastLine = output.trim().split("\n").at(-1);
  dir[Symbol.dispose]();
  return { code: exit.code, output, lastLine, calls };
}

// Each run has its own copy of the tree, and most of one is waiting: they run at the same time.
describe.concurrent("scripts/test.sh (npm test)", () => {
  test("installs the real CLIs while the other suites run, runs the real-CLI suite once it is installed; the closing line sums all", async () => {
    const run = await runTestScript({});
    // Every bun test process gets the 20 s per-test limit (bunfig has no such key; bun's default is 5 s).
    // The other suites run beside the install (each waits for it to have started); the real-CLI suite after it.
    expect([...run.calls].sort()).toEqual([
      "install",
      "install ended",
      "test --timeout=20000 ./tests/a.test.ts",
      "test --timeout=20000 ./tests/realcli/r.test.ts",
      "test --timeout=20000 ./tests/remote/c.test.ts",
    ]);
    expect(run.calls.indexOf("test --timeout=20000 ./tests/realcli/r.test.ts")).toBeGreaterThan(run.calls.indexOf("install ended"));
    expect(run.lastLine).toBe("245 passed, 0 failed");
    expect(run.code).toBe(0);
  }, 60_000);

  test("a failing real-CLI suite fails the run, its failures counted", async () => {
    const run = await runTestScript({ REAL_FAIL: "2" });
    expect(run.lastLine).toBe("245 passed, 2 failed");
    expect(run.code).toBe(1);
  }, 60_000);

  test("the install says what, where, size and time when it starts and ends; its progress stays in its log", async () => {
    const run = await runTestScript({});
    const starts = run.output.indexOf("real CLIs: installing 2 packages into /x/.cache with npm: a@1.0.0, b@2.0.0\n");
    const ends = run.output.indexOf("real CLIs: installed 2 packages, 2.3 GB, in 312 s into /x/.cache\n");
    expect(starts).toBeGreaterThanOrEqual(0);
    expect(ends).toBeGreaterThan(starts);
    expect(run.output).not.toContain("on disk so far");
  }, 60_000);

  test("a failed install is one failure whose reason shows at once, and the real-CLI suite does not start", async () => {
    // The main suite takes 3 s longer than the install: the reason must come before it ends, not after.
    const run = await runTestScript({ INSTALL_RC: "1", MAIN_PASS: "7", MAIN_DELAY: "3" });
    expect(run.output).toContain("real-CLI install failed");
    expect(run.output.indexOf("ENOSPC")).toBeGreaterThanOrEqual(0);
    expect(run.output.indexOf("ENOSPC")).toBeLessThan(run.output.indexOf(" 7 pass"));
    expect(run.calls.filter((call) => call.includes("./tests/realcli/"))).toEqual([]);
    expect(run.lastLine).toBe("14 passed, 1 failed");
    expect(run.code).toBe(1);
  }, 60_000);

  test("--fast: the inner loop's files (no browser, real-CLI or remote suites) in parts, two bun test processes at a time, all counted", async () => {
    const files = ["tests/a.test.ts", "tests/e2e/b.test.ts", "tests/realcli/c.test.ts", "tests/remote/d.test.ts", "tests/x/e.test.ts", "tests/f.test.ts", "tests/x/g.test.ts"];
    const run = await runTestScript({ FAST: "1", SHARD_PASS: "10", CONCURRENT_LOG: "1" }, ["--fast"], files);
    const shards = run.calls.filter((call) => call.startsWith("test "));
    expect(Math.max(...run.calls.filter((call) => call.startsWith("running ")).map((call) => Number(call.split(" ")[1])))).toBe(2);
    // Four files dealt into six parts: four parts of one file each.
    expect(shards).toHaveLength(4);
    const ran = shards.flatMap((call) => call.split(" ").filter((word) => word.endsWith(".test.ts"))).sort();
    expect(ran).toEqual(["./tests/a.test.ts", "./tests/f.test.ts", "./tests/x/e.test.ts", "./tests/x/g.test.ts"]);
    expect(shards.every((call) => call.startsWith("test --timeout=20000 "))).toBe(true);
    expect(run.calls).not.toContain("install");
    expect(run.lastLine).toBe("40 passed, 0 failed");
    expect(run.code).toBe(0);
  }, 60_000);

  test("a part that counts no test fails the run", async () => {
    const run = await runTestScript({ MAIN_PASS: "0" });
    expect(run.output).toContain("no tests ran (main-1)");
    expect(run.output).toContain("no tests ran (remote-1)");
    expect(run.lastLine).toBe("45 passed, 2 failed");
    expect(run.code).toBe(1);
  }, 60_000);

  test("two workers share the queue and a third runs the remote parts: every file runs once, never more than two other bun test processes at once, the rest in eight parts", async () => {
    const files = [...Array.from({ length: 14 }, (_, i) => `tests/m${i}.test.ts`), "tests/remote/r1.test.ts", "tests/remote/r2.test.ts", "tests/remote/r3.test.ts", "tests/realcli/x.test.ts"];
    const run = await runTestScript({ MAIN_PASS: "1", MAIN_DELAY: "0.3", CONCURRENT_LOG: "1" }, [], files);
    const tests = run.calls.filter((call) => call.startsWith("test "));
    const ran = tests.flatMap((call) => call.split(" ").filter((word) => word.startsWith("./"))).sort();
    expect(ran).toEqual(files.map((file) => `./${file}`).sort());
    // The remote files in two parts, the real-CLI folder in one (it has one file), the other fourteen in eight parts.
    expect(tests.filter((call) => call.includes("./tests/remote/"))).toHaveLength(2);
    expect(tests.filter((call) => call.includes("./tests/realcli/"))).toEqual(["test --timeout=20000 ./tests/realcli/x.test.ts"]);
    expect(tests).toHaveLength(11);
    // Each "running" line: bun test processes running then, and how many of them are remote parts.
    const running = run.calls.filter((call) => call.startsWith("running ")).map((call) => call.split(" ").slice(1).map(Number) as [number, number]);
    expect(Math.max(...running.map(([all, remote]) => all - remote))).toBe(2);
    expect(Math.max(...running.map(([, remote]) => remote))).toBe(1);
    expect(Math.max(...running.map(([all]) => all))).toBe(3);
    expect(run.lastLine).toBe("55 passed, 0 failed");
    expect(run.code).toBe(0);
  }, 60_000);

  test("the real-CLI suite runs in parts once installed; a failed install is one failure, and no part starts", async () => {
    const files = ["tests/a.test.ts", "tests/realcli/r1.test.ts", "tests/realcli/r2.test.ts"];
    const ok = await runTestScript({}, [], files);
    expect(ok.calls.filter((call) => call.includes("./tests/realcli/")).sort()).toEqual(["test --timeout=20000 ./tests/realcli/r1.test.ts", "test --timeout=20000 ./tests/realcli/r2.test.ts"]);
    expect(ok.lastLine).toBe("190 passed, 0 failed");
    const failed = await runTestScript({ INSTALL_RC: "1" }, [], files);
    expect(failed.calls.filter((call) => call.includes("./tests/realcli/"))).toEqual([]);
    expect(failed.lastLine).toBe("100 passed, 1 failed");
    expect(failed.code).toBe(1);
  }, 60_000);

  test("files are dealt by what they cost in scripts/test-costs.txt, each to the part that costs least so far", async () => {
    // The remote files, in two parts: a deal by size (r3 is the largest file here) would pair r3 with r1.
    const files = ["tests/a.test.ts", "tests/remote/r1.test.ts", "tests/remote/r2.test.ts", "tests/remote/r3.test.ts"];
    const costs = "10.0 tests/remote/r1.test.ts\n6.0 tests/remote/r2.test.ts\n5.0 tests/remote/r3.test.ts\n";
    const run = await runTestScript({}, [], files, costs);
    expect(run.calls.filter((call) => call.includes("./tests/remote/")).sort()).toEqual([
      "test --timeout=20000 ./tests/remote/r1.test.ts",
      "test --timeout=20000 ./tests/remote/r2.test.ts ./tests/remote/r3.test.ts",
    ]);
    expect(run.code).toBe(0);
  }, 60_000);

  test("the costliest parts start first; a file the table does not know counts as a small one", async () => {
    // Eight parts of one file each; `new` is in no table, so it comes after the dear ones. They start before the cheap
    // ones, the largest files here, which a deal by size would start first.
    const files = ["tests/dear.test.ts", "tests/mid.test.ts", "tests/less.test.ts", "tests/new.test.ts", "tests/cheap.test.ts"];
    const costs = "30.0 tests/dear.test.ts\n10.0 tests/mid.test.ts\n8.0 tests/less.test.ts\n0.5 tests/cheap.test.ts\n";
    const run = await runTestScript({ MAIN_PASS: "1", MAIN_DELAY: "0.3" }, [], files, costs);
    const started = run.calls.filter((call) => call.startsWith("test ")).map((call) => call.split(" ").at(-1));
    expect(new Set(started.slice(0, 2))).toEqual(new Set(["./tests/dear.test.ts", "./tests/mid.test.ts"]));
    expect(new Set(started.slice(2, 4))).toEqual(new Set(["./tests/less.test.ts", "./tests/new.test.ts"]));
    expect(started[4]).toBe("./tests/cheap.test.ts");
    expect(run.lastLine).toBe("5 passed, 0 failed");
  }, 60_000);

  test("the type check runs beside the tests: its errors are shown, and a failed one fails the run", async () => {
    const run = await runTestScript({ TSC_RC: "1" });
    expect(run.output).toContain("error TS2322: nope");
    expect(run.output).toContain("type check failed");
    expect(run.calls).toContain("test --timeout=20000 ./tests/a.test.ts");
    expect(run.lastLine).toBe("245 passed, 1 failed");
    expect(run.code).toBe(1);
    const fast = await runTestScript({ TSC_RC: "1", FAST: "1" }, ["--fast"], ["tests/a.test.ts", "tests/b.test.ts"]);
    expect(fast.output).toContain("type check failed");
    expect(fast.lastLine).toBe("20 passed, 1 failed");
    expect(fast.code).toBe(1);
  }, 60_000);
});
