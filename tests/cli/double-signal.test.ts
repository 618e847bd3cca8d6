// Issue #17: two SIGINTs 50 ms apart must not kill od before its cancel ladder has run. The second signal may
// speed the ladder up (no grace waits), never skip it: the run still ends with an `end` event and the agent, its
// TERM-ignoring tool shell included, is gone by PID.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { spawnChild } from "../../server/platform/process.ts";
import { Store } from "../../server/store/store.ts";
import { fakeAgentWorld } from "../support/fake-agent-daemon.ts";
import { writeShim } from "../support/fake-agents.ts";
import { readSse } from "../support/sse.ts";
import { killSurvivors, survivors } from "../support/survivors.ts";
import { tempDir } from "../support/temp.ts";

const root = join(import.meta.dir, "..", "..");
const TIMEOUT = 60_000;

/** A copilot that starts a TERM-ignoring grandchild in its own session, ignores SIGTERM itself, and hangs. */
const STUBBORN_AGENT = [
  { readAll: true },
  { orphan: true },
  { ignoreTerm: true },
  { out: '{"type":"assistant.turn_start","data":{}}' },
  { hang: true },
];

describe("a second SIGINT", () => {
  test("`od run`: the cancel ladder still runs to the end; nothing of the agent survives", async () => {
    using dir = tempDir("od-double-sigint-");
    const bin = join(dir.path, "bin");
    const project = join(dir.path, "project");
    mkdirSync(bin);
    mkdirSync(project);
    writeShim(bin, "copilot");
    const script = join(dir.path, "script.json");
    const ledger = join(dir.path, "ledger.jsonl");
    writeFileSync(script, JSON.stringify(STUBBORN_AGENT));
    const child = await spawnChild({
      argv: [process.execPath, join(root, "server", "main.ts"), "run", "--agent", "copilot", "--json", "--project", project, "--data-dir", join(dir.path, "data"), "hello"],
      env: { PATH: `${bin}:/usr/bin:/bin`, HOME: dir.path, FAKE_CLI_SCRIPT: `@${script}`, FAKE_CLI_LEDGER: ledger },
    });
    let runId: string | undefined;
    try {
      let stdout = "";
      let stderr = "";
      const decoder = new TextDecoder();
      const errDone = (async () => {
        for await (const chunk of child.stderr) stderr += decoder.decode(chunk);
      })();
      let signalled = false;
      for await (const chunk of child.stdout) {
        stdout += decoder.decode(chunk);
        // The agent has spoken, so it is running and its orphan exists: interrupt twice, as an impatient user does.
        if (!signalled && stdout.includes('"type":"agent"')) {
          signalled = true;
          runId = /"runId":"([^"]+)"/.exec(stdout)?.[1];
          child.kill("SIGINT");
          await new Promise((resolve) => setTimeout(resolve, 50));
          child.kill("SIGINT");
        }
      }
      await errDone;
      const exit = await child.exited;
      expect(signalled).toBe(true);
      expect(exit).toEqual({ code: 130, signal: null });
      expect(stdout.trim().split("\n").at(-1)).toContain('"type":"end"');
      expect(stdout.trim().split("\n").at(-1)).toContain('"status":"canceled"');
      expect(stderr).toContain("again");
      expect(survivors(ledger, runId ? [runId] : [])).toEqual([]);
    } finally {
      child.kill("SIGKILL");
      killSurvivors(ledger, runId ? [runId] : []);
    }
  }, TIMEOUT);

  test("`od serve`: the daemon ends every run and exits 0; nothing of the agent survives", async () => {
    using world = fakeAgentWorld(STUBBORN_AGENT);
    const od = await world.start();
    let runId: string | undefined;
    try {
      runId = await world.startRun(od);
      // start, then the agent's first event: the agent and its orphan are up.
      const frames = await readSse(await world.api(od, `/api/runs/${runId}/events`), { limit: 2 });
      expect(frames.map((frame) => frame.event)).toEqual(["start", "agent"]);
      od.child.kill("SIGINT");
      await new Promise((resolve) => setTimeout(resolve, 50));
      od.child.kill("SIGINT");
      expect(await od.child.exited).toEqual({ code: 0, signal: null });
      expect(od.stderr()).toContain("again");
      expect(survivors(world.ledgerPath, [runId])).toEqual([]);
      const store = Store.open(join(world.dataDir, "od.db"), openBunSqlite);
      try {
        expect(store.runs.get(runId)?.status).toBe("canceled");
        expect(store.runs.eventsAfter(runId, 0).at(-1)?.type).toBe("end");
      } finally {
        store.close();
      }
    } finally {
      await od.stop();
      killSurvivors(world.ledgerPath, runId ? [runId] : []);
    }
  }, TIMEOUT);
});

describe("a command that does not stop by itself", () => {
  test("`od parse -` waiting on stdin ends at the first SIGINT", async () => {
    const child = await spawnChild({ argv: [process.execPath, join(root, "server", "main.ts"), "parse", "--format", "claude-stream-json", "-"], stdin: "pipe" });
    try {
      await child.stdin!.write('{"type":"system","subtype":"init","session_id":"s1"}\n');
      for await (const chunk of child.stdout) if (new TextDecoder().decode(chunk).includes("\n")) break; // it is reading
      child.kill("SIGINT");
      const stillRunning = new Promise((resolve) => setTimeout(() => resolve("still running"), 15_000));
      expect(await Promise.race([child.exited, stillRunning])).toEqual({ code: null, signal: "SIGINT" });
    } finally {
      child.kill("SIGKILL");
    }
  }, TIMEOUT);
});

