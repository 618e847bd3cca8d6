/**
 * A long Claude Code run in stream-json with partial messages, for the page's long-run e2e and benchmark: `cycles`
 * times a streamed text block of `deltasPerCycle` text deltas, then a Bash call and its `resultLines`-line result.
 * Each cycle is deltasPerCycle + 2 agent events; the run ends with a short closing answer, `lastText`.
 */
import { writeFileSync } from "node:fs";

export interface LongRunShape {
  cycles: number;
  deltasPerCycle: number;
  resultLines: number;
}

const SESSION = "s-long";

function streamEvent(event: unknown): string {
  return JSON.stringify({ type: "stream_event", event, session_id: SESSION });
}

function assistant(id: string, content: unknown[]): string {
  return JSON.stringify({ type: "assistant", message: { id, type: "message", role: "assistant", model: "claude-long", content }, parent_tool_use_id: null, session_id: SESSION });
}

/** A text block streamed as deltas, then the whole message (as Claude sends it with partial messages on). */
function streamedText(id: string, parts: string[]): string[] {
  return [
    streamEvent({ type: "message_start", message: { id, role: "assistant", content: [] } }),
    streamEvent({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
    ...parts.map((text) => streamEvent({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } })),
    streamEvent({ type: "content_block_stop", index: 0 }),
    assistant(id, [{ type: "text", text: parts.join("") }]),
  ];
}

/** The closing answer of a run of `shape` (what the page shows last). */
export function lastTextOf(shape: LongRunShape): string {
  return `Finished all ${shape.cycles} steps of the long run.`;
}

/** The first words of the run (what scrolling to the top shows). */
export const FIRST_TEXT = "Step 0 begins here.";

export function longClaudeRunLines(shape: LongRunShape): string[] {
  const lines = [JSON.stringify({ type: "system", subtype: "init", cwd: "/long", session_id: SESSION, tools: ["Bash"], model: "claude-long" })];
  for (let c = 0; c < shape.cycles; c++) {
    const parts = Array.from({ length: shape.deltasPerCycle }, (_, i) => (i === 0 ? (c === 0 ? FIRST_TEXT : `Step ${c} begins here.`) : ` word${i}`));
    lines.push(...streamedText(`m-text-${c}`, parts));
    const toolId = `toolu_long_${c}`;
    lines.push(assistant(`m-tool-${c}`, [{ type: "tool_use", id: toolId, name: "Bash", input: { command: `ls step-${c}` } }]));
    const output = Array.from({ length: shape.resultLines }, (_, i) => `step-${c}/file-${i}.txt`).join("\n");
    lines.push(
      JSON.stringify({
        type: "user",
        message: { role: "user", content: [{ tool_use_id: toolId, type: "tool_result", content: output, is_error: false }] },
        parent_tool_use_id: null,
        session_id: SESSION,
      }),
    );
  }
  lines.push(...streamedText("m-last", [lastTextOf(shape)]));
  lines.push(JSON.stringify({ type: "result", subtype: "success", is_error: false, duration_ms: 1, num_turns: 1, result: lastTextOf(shape), session_id: SESSION, total_cost_usd: 0, usage: { input_tokens: 1, output_tokens: 1 } }));
  return lines;
}

/** Writes the run to `file` (for the fake CLI's `outFile` step); returns its agent-event count. */
export function writeLongClaudeRun(file: string, shape: LongRunShape): number {
  writeFileSync(file, longClaudeRunLines(shape).join("\n") + "\n");
  return shape.cycles * (shape.deltasPerCycle + 2) + 1;
}
