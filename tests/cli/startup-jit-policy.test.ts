// The compiled binary starts with a reluctant JIT (scripts/build-binary.ts), so run-once start-up code stays in the
// interpreter. Left so, a long run or a large transcript is slower per line: `od parse` restores the normal policy
// before the first event is printed, `od run` once its run has streamed EVENTS_BEFORE_JIT events (a short run ends
// in the interpreter: compiling its once-run paths cost more than it saved).
import { afterEach, beforeEach, expect, spyOn, test, type Mock } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeClaudeScript } from "../../bench/support/claude-script.ts";
import { parseCommand } from "../../server/cli/parse-command.ts";
import { runCommand } from "../../server/cli/run-command.ts";
import { EVENTS_BEFORE_JIT } from "../../server/platform/jit-policy.ts";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { writeShim } from "../support/fake-agents.ts";
import { streamFromChunks } from "../support/stream-chunks.ts";
import { tempDir } from "../support/temp.ts";

let setPolicy: Mock<typeof Bun.unsafe.setJITPolicy>;
beforeEach(() => void (setPolicy = spyOn(Bun.unsafe, "setJITPolicy")));
afterEach(() => setPolicy.mockRestore());

/** Command IO whose stdout notes how many policy calls were made by its first write. */
function watchedIO(cwd: string, env: Record<string, string>) {
  const seen: { callsAtFirstWrite?: number } = {};
  const io = {
    stdout: () => void (seen.callsAtFirstWrite ??= setPolicy.mock.calls.length),
    stderr: () => undefined,
    stdin: streamFromChunks([]),
    env,
    cwd,
    interrupted: new Promise<never>(() => undefined),
  };
  return { io, seen };
}

async function odRun(lines: number) {
  using dir = tempDir("od-run-jit-");
  const bin = join(dir.path, "bin");
  const project = join(dir.path, "project");
  mkdirSync(bin);
  mkdirSync(project);
  writeShim(bin, "claude");
  const script = writeClaudeScript(join(dir.path, "script.json"), lines);
  const { io, seen } = watchedIO(dir.path, { PATH: `${bin}:/usr/bin:/bin`, HOME: dir.path, FAKE_CLI_SCRIPT: `@${script}` });
  const flags = { agent: "claude", json: true, project, "data-dir": join(dir.path, "data") };
  expect(await runCommand({ openSqlite: openBunSqlite }).run({ flags, positionals: ["go"] }, io)).toBe(0);
  return seen;
}

test("od run: a short run keeps the start-up policy to its end", async () => {
  const seen = await odRun(20);
  expect(seen.callsAtFirstWrite).toBe(0);
  expect(setPolicy.mock.calls).toEqual([]);
});

test(`od run: a run that streams ${EVENTS_BEFORE_JIT} events restores the normal policy, once`, async () => {
  await odRun(EVENTS_BEFORE_JIT + 50);
  expect(setPolicy.mock.calls).toEqual([[1]]);
});

test("od parse: the normal JIT policy is back before the first event is printed", async () => {
  using dir = tempDir("od-parse-jit-");
  writeFileSync(join(dir.path, "codex.jsonl"), '{"type":"item.completed","item":{"id":"i","type":"agent_message","text":"hi"}}\n');
  const { io, seen } = watchedIO(dir.path, {});
  expect(await parseCommand.run({ flags: { format: "json-event-stream", parser: "codex" }, positionals: ["codex.jsonl"] }, io)).toBe(0);
  expect(seen.callsAtFirstWrite).toBe(1);
  expect(setPolicy.mock.calls).toEqual([[1]]);
});
