// `od run` in process: start-up is over once the run exists, so the JIT compiles the output loop as usual from there.
import { expect, spyOn, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { writeClaudeScript } from "../../bench/support/claude-script.ts";
import { runCommand } from "../../server/cli/run-command.ts";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { writeShim } from "../support/fake-agents.ts";
import { tempDir } from "../support/temp.ts";

test("the normal JIT policy is back before the first event is printed", async () => {
  using dir = tempDir("od-run-jit-");
  const bin = join(dir.path, "bin");
  const project = join(dir.path, "project");
  mkdirSync(bin);
  mkdirSync(project);
  writeShim(bin, "claude");
  const script = writeClaudeScript(join(dir.path, "script.json"), 20);
  // The compiled binary starts with a reluctant JIT (scripts/build-binary.ts); left so, a long run is slower per line.
  const setPolicy = spyOn(Bun.unsafe, "setJITPolicy");
  let callsAtFirstWrite: number | undefined;
  try {
    const code = await runCommand({ openSqlite: openBunSqlite }).run(
      { flags: { agent: "claude", json: true, project, "data-dir": join(dir.path, "data") }, positionals: ["go"] },
      {
        stdout: () => void (callsAtFirstWrite ??= setPolicy.mock.calls.length),
        stderr: () => undefined,
        stdin: (async function* () {})(),
        env: { PATH: `${bin}:/usr/bin:/bin`, HOME: dir.path, FAKE_CLI_SCRIPT: `@${script}` },
        cwd: dir.path,
        interrupted: new Promise(() => undefined),
      },
    );
    expect(code).toBe(0);
    expect(callsAtFirstWrite).toBe(1);
    expect(setPolicy.mock.calls).toEqual([[1]]);
  } finally {
    setPolicy.mockRestore();
  }
});
