/**
 * Reading what JavaScriptCore's top tier (the FTL) compiled in a child process, for the tests of od's per-event path
 * (server/platform/jit-tiers.ts): the flag that makes the runtime report it, the report read, and the long claude
 * answer that streams through `od run`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnChild, type ChildHandle } from "../../server/platform/process.ts";
import { startDaemonProcess } from "./daemon-process.ts";
import { writeShim } from "./fake-agents.ts";
import { tempDir } from "./temp.ts";

/**
 * What makes the runtime report each FTL compile on stderr ("Optimized NAME#HASH:[…] using FTL …"). Its
 * `dumpSourceAtDFGTime`, which would print each function's source too, crashed 1 run in 20 (a debugging aid racing
 * the compiler threads), so the report names the functions only.
 */
export const REPORT_FTL = { BUN_JSC_reportFTLCompileTimes: "1" };

/** The functions the FTL compiled, by name (the runtime's builtins too: od's per-event code calls none that hot). */
export function ftlCompiled(report: string): string[] {
  return [...report.matchAll(/^Optimized (\S*?)#\w+:\[[^\]]*\] using FTL/gm)].map((match) => match[1] || "(anonymous)");
}

/**
 * A fake-CLI script (tests/fakes/fake-cli.ts) of Claude Code's stream-json: init, `lines` assistant messages (text,
 * and a tool call with its result every 50), result.
 */
function longClaudeAnswer(lines: number): unknown[] {
  const assistant = (content: unknown[]) => JSON.stringify({ type: "assistant", message: { id: "m{{i}}", type: "message", role: "assistant", model: "claude-test", content }, session_id: "s-tiers" });
  const text = assistant([{ type: "text", text: "line {{i}} of a long answer" }]);
  const toolUse = assistant([{ type: "tool_use", id: "t{{i}}", name: "Bash", input: { command: "ls -la" } }]);
  const toolResult = JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t{{i}}", content: "a\nb\nc" }] }, session_id: "s-tiers" });
  return [
    { out: JSON.stringify({ type: "system", subtype: "init", cwd: "/tiers", session_id: "s-tiers", tools: [], model: "claude-test" }) },
    { repeat: lines / 50, out: [...Array(48).fill(text), toolUse, toolResult].join("\n") },
    { out: JSON.stringify({ type: "result", subtype: "success", is_error: false, duration_ms: 1, num_turns: 1, result: "done", session_id: "s-tiers", total_cost_usd: 0, usage: { input_tokens: 1, output_tokens: 1 } }) },
  ];
}

/** A finished child's stdout and stderr, and how it exited. */
export async function outputOf(child: ChildHandle): Promise<{ stdout: string; stderr: string; code: number | null }> {
  const read = async (stream: AsyncIterable<Uint8Array>) => {
    const decoder = new TextDecoder();
    let text = "";
    for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
    return text + decoder.decode();
  };
  const [stdout, stderr] = await Promise.all([read(child.stdout), read(child.stderr)]);
  return { stdout, stderr, code: (await child.exited).code };
}

/** A folder with bin/claude (the fake CLI answering `lines` lines), project/ and data/, and the env that finds them. */
function claudeWorld(dir: string, lines: number): { project: string; data: string; env: Record<string, string> } {
  const bin = join(dir, "bin");
  mkdirSync(bin);
  mkdirSync(join(dir, "project"));
  writeShim(bin, "claude");
  writeFileSync(join(dir, "script.json"), JSON.stringify(longClaudeAnswer(lines)));
  return { project: join(dir, "project"), data: join(dir, "data"), env: { PATH: `${bin}:/usr/bin:/bin`, HOME: dir, FAKE_CLI_SCRIPT: `@${join(dir, "script.json")}`, ...REPORT_FTL } };
}

/**
 * `od run --agent claude --json` (`od`: the argv that starts od) on a fake claude answering `lines` lines, with the
 * runtime reporting its FTL compiles: how many lines it printed, and what the FTL compiled.
 */
export async function longClaudeRun(od: string[], lines: number): Promise<{ code: number | null; lines: number; ftlCompiled: string[] }> {
  using dir = tempDir("od-tiers-");
  const world = claudeWorld(dir.path, lines);
  const child = await spawnChild({ argv: [...od, "run", "--agent", "claude", "--json", "--project", world.project, "--data-dir", world.data, "go"], env: world.env, stdin: "pipe" });
  child.stdin!.end();
  const { stdout, stderr, code } = await outputOf(child);
  return { code, lines: stdout.split("\n").length, ftlCompiled: ftlCompiled(stderr) };
}

/**
 * The same answer as a run of the daemon (`od serve`, `od`: the argv that starts od) through its HTTP API, read to
 * its end as SSE: how many frames came, and what the FTL compiled while the daemon streamed it.
 */
export async function longClaudeApiRun(od: string[], lines: number): Promise<{ frames: number; ftlCompiled: string[] }> {
  using dir = tempDir("od-tiers-");
  const world = claudeWorld(dir.path, lines);
  let frames = 0;
  {
    await using daemon = await startDaemonProcess([...od, "serve", "--port", "0", "--no-open", "--data-dir", world.data], { env: world.env });
    const call = async (path: string, body?: unknown) => {
      const res = await fetch(`${daemon.origin}${path}`, { method: body ? "POST" : "GET", headers: { authorization: `Bearer ${daemon.token}`, "content-type": "application/json" }, body: body ? JSON.stringify(body) : undefined });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res;
    };
    const { project } = (await (await call("/api/projects", { name: "tiers", path: world.project })).json()) as { project: { id: string } };
    const { runId } = (await (await call("/api/runs", { projectId: project.id, agentId: "claude", message: "go" })).json()) as { runId: string };
    const decoder = new TextDecoder();
    let text = "";
    for await (const chunk of (await call(`/api/runs/${runId}/events`)).body!) {
      text += decoder.decode(chunk, { stream: true });
      frames += text.split("\n\n").length - 1;
      text = text.slice(text.lastIndexOf("\n\n") + 2);
    }
    await daemon.stop();
    return { frames, ftlCompiled: ftlCompiled(daemon.stderr()) };
  }
}
