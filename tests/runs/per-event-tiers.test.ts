// A long stream through `od run` compiles none of od's per-event code with JavaScriptCore's top tier (the FTL): each
// function of that path is named in server/platform/jit-tiers.ts's `perEvent` by the module that defines it. A
// function added to the path (or renamed out of it) shows up here by its source, with where to name it.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnChild } from "../../server/platform/process.ts";
import { writeShim } from "../support/fake-agents.ts";
import { tempDir } from "../support/temp.ts";

const root = join(import.meta.dir, "..", "..");
const LINES = 60_000;
const TIMEOUT = 120_000;

/** Claude Code's stream-json: init, LINES assistant messages (text, and a tool call with its result every 50), result. */
function claudeScript(): unknown[] {
  const assistant = (content: unknown[]) => JSON.stringify({ type: "assistant", message: { id: "m{{i}}", type: "message", role: "assistant", model: "claude-test", content }, session_id: "s-tiers" });
  const text = assistant([{ type: "text", text: "line {{i}} of a long answer" }]);
  const toolUse = assistant([{ type: "tool_use", id: "t{{i}}", name: "Bash", input: { command: "ls -la" } }]);
  const toolResult = JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t{{i}}", content: "a\nb\nc" }] }, session_id: "s-tiers" });
  return [
    { out: JSON.stringify({ type: "system", subtype: "init", cwd: "/tiers", session_id: "s-tiers", tools: [], model: "claude-test" }) },
    { repeat: LINES / 50, out: [...Array(48).fill(text), toolUse, toolResult].join("\n") },
    { out: JSON.stringify({ type: "result", subtype: "success", is_error: false, duration_ms: 1, num_turns: 1, result: "done", session_id: "s-tiers", total_cost_usd: 0, usage: { input_tokens: 1, output_tokens: 1 } }) },
  ];
}

/** The functions JavaScriptCore compiled with the FTL while od ran, with the first line of each one's source. */
function ftlCompiled(report: string): string[] {
  const sources = new Map<string, string>();
  for (const match of report.matchAll(/\] Compiled (\S*?)#(\w+):\[[^\]]*\]\n'''([^\n]*)/g)) sources.set(match[2]!, match[3]!);
  return [...report.matchAll(/Optimized (\S*?)#(\w+):\[[^\]]*\] using FTL/g)].map((match) => `${match[1] || "(anonymous)"}: ${sources.get(match[2]!) ?? "?"}`);
}

describe("the per-event path and the FTL", () => {
  test(`a ${LINES / 1000}k-line claude run compiles none of od's code with the FTL`, async () => {
    using dir = tempDir("od-tiers-");
    const bin = join(dir.path, "bin");
    mkdirSync(bin);
    mkdirSync(join(dir.path, "project"));
    writeShim(bin, "claude");
    writeFileSync(join(dir.path, "script.json"), JSON.stringify(claudeScript()));
    const child = await spawnChild({
      argv: [process.execPath, join(root, "server", "main.ts"), "run", "--agent", "claude", "--json", "--project", join(dir.path, "project"), "--data-dir", join(dir.path, "data"), "go"],
      env: {
        PATH: `${bin}:/usr/bin:/bin`,
        HOME: dir.path,
        FAKE_CLI_SCRIPT: `@${join(dir.path, "script.json")}`,
        // What the runtime compiles with the FTL, each function's source beside it: on od's stderr.
        BUN_JSC_reportFTLCompileTimes: "1",
        BUN_JSC_dumpSourceAtDFGTime: "1",
      },
      stdin: "pipe",
    });
    child.stdin!.end();
    let lines = 0;
    let stderr = "";
    const decoder = new TextDecoder();
    const readErr = (async () => {
      for await (const chunk of child.stderr) stderr += decoder.decode(chunk, { stream: true });
    })();
    for await (const chunk of child.stdout) for (const byte of chunk) if (byte === 0x0a) lines++;
    await readErr;
    expect((await child.exited).code).toBe(0);
    expect(lines).toBeGreaterThan(LINES);
    expect(ftlCompiled(stderr)).toEqual([]);
  }, TIMEOUT);
});
