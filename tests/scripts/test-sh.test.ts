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
  tests/realcli/setup.ts) touch "$here/install.started"; echo "install" >>"$here/calls.log"; sleep 0.5; exit "\${INSTALL_RC:-0}" ;;
  test) shift; echo "test $*" >>"$here/calls.log"
    case "$*" in
      *./tests/realcli) printf ' %s pass\\n %s fail\\n' "\${REAL_PASS:-45}" "\${REAL_FAIL:-0}"; [ "\${REAL_FAIL:-0}" = 0 ] ;;
      *)
        for _ in $(seq 300); do [ -f "$here/install.started" ] && break; sleep 0.1; done
        if [ -f "$here/install.started" ]; then printf ' %s pass\\n 0 fail\\n' "\${MAIN_PASS:-100}"
        else printf ' 0 pass\\n 1 fail\\n'; exit 1; fi ;;
    esac ;;
esac
`;

async function runTestScript(env: Record<string, string>) {
  const dir = tempDir("od-test-sh-");
  const root = dir.path;
  mkdirSync(join(root, "scripts"));
  mkdirSync(join(root, "node_modules", ".bin"), { recursive: true });
  copyFileSync(SCRIPT, join(root, "scripts", "test.sh"));
  writeFileSync(join(root, "node_modules", ".bin", "bun"), FAKE_BUN);
  writeFileSync(join(root, "node_modules", ".bin", "tsc"), "#!/bin/sh\nexit 0\n");
  for (const tool of ["bun", "tsc"]) chmodSync(join(root, "node_modules", ".bin", tool), 0o755);
  writeFileSync(join(root, "calls.log"), "");

  const child = await spawnChild({ argv: ["bash", join(root, "scripts", "test.sh")], cwd: root, env: { ...process.env, ...env }, stdin: "ignore", ownProcessGroup: true });
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

describe("scripts/test.sh (npm test)", () => {
  test("installs the real CLIs while the other suites run, then runs the real-CLI suite; the closing line sums both", async () => {
    const run = await runTestScript({});
    // Every bun test process gets the 20 s per-test limit (bunfig has no such key; bun's default is 5 s).
    expect([...run.calls].sort()).toEqual(["install", "test --timeout=20000 --path-ignore-patterns=**/realcli/**", "test --timeout=20000 ./tests/realcli"]);
    expect(run.calls.at(-1)).toBe("test --timeout=20000 ./tests/realcli");
    expect(run.lastLine).toBe("145 passed, 0 failed");
    expect(run.code).toBe(0);
  }, 60_000);

  test("a failing real-CLI suite fails the run, its failures counted", async () => {
    const run = await runTestScript({ REAL_FAIL: "2" });
    expect(run.lastLine).toBe("145 passed, 2 failed");
    expect(run.code).toBe(1);
  }, 60_000);

  test("a failed install is one failure with its output, and the real-CLI suite does not start", async () => {
    const run = await runTestScript({ INSTALL_RC: "1", MAIN_PASS: "7" });
    expect(run.output).toContain("real-CLI install failed");
    expect(run.calls.filter((call) => call.endsWith("./tests/realcli"))).toEqual([]);
    expect(run.lastLine).toBe("7 passed, 1 failed");
    expect(run.code).toBe(1);
  }, 60_000);

  test("a part that counts no test fails the run", async () => {
    const run = await runTestScript({ MAIN_PASS: "0" });
    expect(run.output).toContain("no tests ran (main)");
    expect(run.lastLine).toBe("45 passed, 1 failed");
    expect(run.code).toBe(1);
  }, 60_000);
});
