/**
 * A Claude Code stream-json answer of N text lines, as a script for the fake CLI (tests/fakes/fake-cli.ts), and the
 * argv od gives `claude`, so "the CLI alone" is the same process with the same output that od runs.
 */
import { writeFileSync } from "node:fs";

const INIT = JSON.stringify({ type: "system", subtype: "init", cwd: "/bench", session_id: "s-bench", tools: [], model: "claude-bench" });
const TEXT_LINE = JSON.stringify({
  type: "assistant",
  message: { id: "m{{i}}", type: "message", role: "assistant", model: "claude-bench", content: [{ type: "text", text: "line {{i}} of a benchmark answer" }] },
  session_id: "s-bench",
});
const RESULT = JSON.stringify({ type: "result", subtype: "success", is_error: false, duration_ms: 1, num_turns: 1, result: "done", session_id: "s-bench", total_cost_usd: 0, usage: { input_tokens: 1, output_tokens: 1 } });

/** init, `lines` assistant text messages, result: lines + 2 stdout lines in all. */
export function writeClaudeScript(path: string, lines: number): string {
  writeFileSync(path, JSON.stringify([{ out: INIT }, { repeat: lines, out: TEXT_LINE }, { out: RESULT }]));
  return path;
}

/** What od runs: `claude -p` with stream-json in and out (server/runtimes/defs/claude.ts), the prompt on stdin. */
export const CLAUDE_ARGS = ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", "--permission-mode", "bypassPermissions"];
export const CLAUDE_STDIN = `${JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "text", text: "go" }] } })}\n`;
