// `od run --json` in process: stdout is written a batch of events at a time, not one write per event.
import { expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { writeClaudeScript } from "../../bench/support/claude-script.ts";
import { runCommand } from "../../server/cli/run-command.ts";
import { RunEvent } from "../../server/contracts/runs.ts";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { writeShim } from "../support/fake-agents.ts";
import { tempDir } from "../support/temp.ts";

const LINES = 5000;

test("a long --json run reaches stdout in batches: every event, in order, in far fewer writes than events", async () => {
  using dir = tempDir("od-run-batches-");
  const bin = join(dir.path, "bin");
  const project = join(dir.path, "project");
  mkdirSync(bin);
  mkdirSync(project);
  writeShim(bin, "claude");
  const script = writeClaudeScript(join(dir.path, "script.json"), LINES);
  const writes: string[] = [];
  const command = runCommand({ openSqlite: openBunSqlite });
  const code = await command.run(
    { flags: { agent: "claude", json: true, project, "data-dir": join(dir.path, "data") }, positionals: ["go"] },
    {
      stdout: (text) => void writes.push(text),
      stderr: () => undefined,
      stdin: (async function* () {})(),
      env: { PATH: `${bin}:/usr/bin:/bin`, HOME: dir.path, FAKE_CLI_SCRIPT: `@${script}` },
      cwd: dir.path,
      interrupted: new Promise(() => undefined),
    },
  );
  expect(code).toBe(0);
  const events = writes.join("").trim().split("\n").map((line) => RunEvent.parse(JSON.parse(line)));
  expect(events.length).toBeGreaterThan(LINES);
  expect(events.map((event) => event.id)).toEqual(events.map((_, i) => i + 1));
  expect(events.at(-1)).toMatchObject({ type: "end", status: "succeeded" });
  // One write per batch: a handful per CLI stdout chunk at most, never one per event.
  expect(writes.length).toBeLessThan(events.length / 10);
}, 60_000);
