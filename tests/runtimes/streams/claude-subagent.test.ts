/**
 * Claude `Task` sub-agents (issue #19): the sub-agent's own tool calls and results keep a link to the `Task` call
 * that started them, its chatter never joins the main answer, and its `end_turn` never ends the main turn.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import type { AgentEvent } from "../../../server/contracts/events.ts";
import { FIXTURES_DIR, listFixtures, parseFixture } from "./golden.ts";

async function subAgentEvents(): Promise<AgentEvent[]> {
  const file = join(FIXTURES_DIR, "claude", "subagent-task.synthetic.jsonl");
  const fixture = listFixtures().find((f) => f.file === file);
  if (!fixture) throw new Error(`missing fixture ${file}`);
  return parseFixture(fixture);
}

test("a Task sub-agent's tool calls and results carry the Task call's id", async () => {
  const events = await subAgentEvents();
  const tools = events.filter((e) => e.type === "tool_use" || e.type === "tool_result");
  const links = tools.map((e) => [e.type === "tool_use" ? e.id : e.toolUseId, e.parentToolUseId ?? null]);
  expect(links).toEqual([
    ["toolu_01TaskSurvey", null],
    ["toolu_02SubLs", "toolu_01TaskSurvey"],
    ["toolu_02SubLs", "toolu_01TaskSurvey"],
    ["toolu_03SubEdit", "toolu_01TaskSurvey"],
    ["toolu_03SubEdit", "toolu_01TaskSurvey"],
    ["toolu_01TaskSurvey", null],
    ["toolu_04Lint", null],
    ["toolu_04Lint", null],
  ]);
  expect(events.find((e) => e.type === "tool_use" && e.id === "toolu_01TaskSurvey")).toMatchObject({ kind: "task", name: "Task" });
});

test("the sub-agent's text stays out of the answer and its end_turn does not end the main turn", async () => {
  const events = await subAgentEvents();
  const text = events.flatMap((e) => (e.type === "text_delta" ? [e.delta] : [])).join("");
  expect(text).toBe("I'll ask a sub-agent to survey the styles.The sub-agent found main.css and print.css.");
  expect(events.filter((e) => e.type === "turn_end")).toEqual([]);
});

test("a failed Bash call reports the exit code Claude printed; a refused edit is an error result", async () => {
  const events = await subAgentEvents();
  expect(events.find((e) => e.type === "tool_result" && e.toolUseId === "toolu_04Lint")).toMatchObject({ isError: true, exitCode: 2 });
  const refused = events.find((e) => e.type === "tool_result" && e.toolUseId === "toolu_03SubEdit");
  expect(refused).toMatchObject({ isError: true });
  expect(refused && "exitCode" in refused).toBe(false);
});
