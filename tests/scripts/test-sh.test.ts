// scripts/test.sh (`npm test`) with stand-in bun and tsc: which parts run, that the lanes overlap, that the closing
// line sums every bun test process, and that any failing part fails the run.
import { describe, expect, test } from "bun:test";
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnChild } from "../../server/platform/process.ts";
import { tempDir } from "../support/temp.ts";

const SCRIPT = join(import.meta.dir, "..", "..", "scripts", "test.sh");

/**
 * A stand-in `bun`: `run` (the web build) succeeds; `tests/realcli/setup.ts` (the install) exits $INSTALL_RC; `test`
 * logs its arguments and prints bun's count lines. The main part waits (at most 30 s) for od-run to have started,
 * so it passes only when the two lanes really run at the same time (unless WAIT_FOR_OD_RUN=0).
 */
const FAKE_BUN = `#!/usr/bin/env bash
log="$(dirname "$0")/../../calls.log"
case "$1" in
  run) echo "web bundle written" >&2 ;;
  tests/realcli/setup.ts) echo "install" >>"$log"; exit "\${INSTALL_RC:-0}" ;;
  test) shift; echo "test $*" >>"$log"
    case "$*" in
      *od-run.test.ts*) touch "$(dirname "$0")/../../od-run.started"; sleep 0.5
        printf ' %s pass\\n %s fail\\n' "\${RUN_PASS:-45}" "\${RUN_FAIL:-0}"; [ "\${RUN_FAIL:-0}" = 0 ] ;;
      --path-ignore-patterns*)
        [ "\${WAIT_FOR_OD_RUN:-1}" = 1 ] && for _ in $(seq 300); do [ -f "$(dirname "$0")/../../od-run.started" ] && break; sleep 0.1; done
        if [ -f "$(dirname "$0")/../../od-run.started" ]; then printf ' %s pass\\n 0 fail\\n' "\${MAIN_PASS:-100}"
        elif [ "\${WAIT_FOR_OD_RUN:-1}" = 0 ]; then printf ' %s pass\\n 0 fail\\n' "\${MAIN_PASS:-100}"
        else printf ' 0 pass\\n 1 fail\\n'; exit 1; fi ;;
      *) printf ' 10 pass\\n 0 fail\\n' ;;
    esac ;;
esac
`;

async function runTestScript(env: Record<string, string>) {
  const dir = tempDir("od-test-sh-");
  const root = dir.path;
  mkdirSync(join(root, "scripts"));
  mkdirSync(join(root, "node_modules", ".bin"), { recursive: true });
  mkdirSync(join(root, "tests", "realcli"), { recursive: true });
  copyFileSync(SCRIPT, join(root, "scripts", "test.sh"));
  for (const file of ["od-run.test.ts", "od-agents.test.ts", "scrub.test.ts"]) writeFileSync(join(root, "tests", "realcli", file), "");
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
  test("runs od-run alongside the rest and sums every bun test process in its closing line", async () => {
    const run = await runTestScript({});
    expect(run.lastLine).toBe("155 passed, 0 failed");
    expect(run.code).toBe(0);
    expect(run.calls).toContain("install");
    expect(run.calls).toContain("test ./tests/realcli/od-run.test.ts");
    expect(run.calls).toContain("test ./tests/realcli/od-agents.test.ts ./tests/realcli/scrub.test.ts");
    expect(run.calls).toContain("test --path-ignore-patterns=**/realcli/**");
  }, 60_000);

  test("a failing od-run lane fails the run, its failures counted", async () => {
    const run = await runTestScript({ RUN_FAIL: "2" });
    expect(run.lastLine).toBe("155 passed, 2 failed");
    expect(run.code).toBe(1);
  }, 60_000);

  test("a failed install is one failure with its output, and no real-CLI file runs", async () => {
    const run = await runTestScript({ INSTALL_RC: "1", MAIN_PASS: "7", WAIT_FOR_OD_RUN: "0" });
    expect(run.output).toContain("real-CLI install failed");
    expect(run.calls.filter((call) => call.includes("./tests/realcli/"))).toEqual([]);
    expect(run.code).toBe(1);
    expect(run.lastLine).toBe("7 passed, 1 failed");
  }, 60_000);

  test("a part that counts no test fails the run", async () => {
    const run = await runTestScript({ MAIN_PASS: "0" });
    expect(run.output).toContain("no tests ran (main)");
    expect(run.lastLine).toBe("55 passed, 1 failed");
    expect(run.code).toBe(1);
  }, 60_000);
});
