/**
 * Issue #19: a Claude `Task` sub-agent is a child run under the call that started it, live and after a reload,
 * with its own calls and status; failed and refused calls are marked; exit codes come through.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentEvent } from "../../server/contracts/events.ts";
import type { RunEvent, RunEventOf } from "../../server/contracts/runs.ts";
import { RunHistory } from "../../server/runs/history.ts";
import { runStateFromEvents } from "../../web/state/run-history.ts";
import { RunDraft } from "../../web/state/run-draft.ts";
import { foldRunEvent } from "../../web/state/run-fold.ts";
import { emptyRunState, type RunItem, type RunState, type ToolItem } from "../../web/state/run-state.ts";
import { runEvents } from "../support/web-run-events.ts";

const recorded = JSON.parse(readFileSync(join(import.meta.dir, "../fixtures/claude/subagent-task.synthetic.events.json"), "utf8")) as AgentEvent[];

function fold(events: RunEvent[], draft = new RunDraft(emptyRunState("run-1"))): RunState {
  for (const event of events) foldRunEvent(draft, event);
  return draft.snapshot();
}

/** The tree as [id, state, children] for tools and the kind for everything else. */
function shape(items: readonly RunItem[]): unknown[] {
  return items.map((item) => (item.kind === "tool" ? [item.id, item.state, ...(item.children ? [shape(item.children)] : [])] : item.kind));
}

const expectedTree = [
  "text",
  [
    "toolu_01TaskSurvey",
    "done",
    [
      ["toolu_02SubLs", "done"],
      ["toolu_03SubEdit", "error"],
    ],
  ],
  ["toolu_04Lint", "error"],
  "text",
];

describe("sub-agent tree", () => {
  test("a Task sub-agent's calls fold into a child run under the Task call, not into the main list", () => {
    const e = runEvents();
    const state = fold([e.start(), ...recorded.map((event) => e.agent(event)), e.end()]);
    expect(shape(state.items)).toEqual(expectedTree);
    const task = state.items[1] as ToolItem;
    expect(task).toMatchObject({ toolKind: "task", name: "Task", result: "There are two stylesheets; the heading edit needs a read first." });
    expect(task.children?.[1]).toMatchObject({ toolKind: "file_edit", path: "styles/main.css", state: "error" });
    expect(state.items[2]).toMatchObject({ toolKind: "command", exitCode: 2, state: "error" });
  });

  test("the child run is running until the Task call's result arrives, then settles with it", () => {
    const e = runEvents();
    const draft = new RunDraft(emptyRunState("run-1"));
    const untilTaskResult = recorded.findIndex((event) => event.type === "tool_result" && event.toolUseId === "toolu_01TaskSurvey");
    const live = fold([e.start(), ...recorded.slice(0, untilTaskResult).map((event) => e.agent(event))], draft);
    const task = live.items[1] as ToolItem;
    expect(task.state).toBe("running");
    expect(shape(task.children ?? [])).toEqual([
      ["toolu_02SubLs", "done"],
      ["toolu_03SubEdit", "error"],
    ]);
    const after = fold([e.agent(recorded[untilTaskResult]!)], draft);
    expect((after.items[1] as ToolItem).state).toBe("done");
    // Published snapshots never change under the renderer: the earlier one still says running.
    expect(task.state).toBe("running");
  });

  test("a reload rebuilds the same tree from the run's history", () => {
    const e = runEvents();
    const history = new RunHistory();
    for (const event of [e.start(), ...recorded.map((event) => e.agent(event)), e.end()]) history.push(event);
    const state = runStateFromEvents("run-1", JSON.parse(JSON.stringify(history.events)));
    expect(shape(state.items)).toEqual(expectedTree);
    expect(state.items[2]).toMatchObject({ exitCode: 2 });
  });

  // Issue #34: a call cut off by its run's end is canceled or interrupted, never failed (nor done after a reload).
  test("a run that ends with a sub-agent still working settles its calls at every depth: canceled, or interrupted", () => {
    const unfinished = (end: Partial<RunEventOf<"end">>) => {
      const e = runEvents();
      return fold([
        e.start(),
        e.agent({ type: "tool_use", id: "task", name: "Task", input: { description: "d" }, kind: "task" }),
        e.agent({ type: "tool_use", id: "deep", name: "Bash", input: { command: "sleep 9" }, kind: "command", parentToolUseId: "task" }),
        e.end(end),
      ]);
    };
    expect(shape(unfinished({ status: "canceled", reason: "canceled" }).items)).toEqual([["task", "canceled", [["deep", "canceled"]]]]);
    expect(shape(unfinished({ status: "failed", reason: "Claude Code exited with code 1" }).items)).toEqual([["task", "interrupted", [["deep", "interrupted"]]]]);
    // What recovery writes for a run whose od process died.
    const crashed = unfinished({ status: "failed", failureCategory: "crash", failureDetail: "daemon_restart", reason: "od stopped while this run was in progress" });
    expect(shape(crashed.items)).toEqual([["task", "interrupted", [["deep", "interrupted"]]]]);
    expect(shape(unfinished({ status: "succeeded" }).items)).toEqual([["task", "done", [["deep", "done"]]]]);
  });

  test("a call whose parent never arrived is shown at the top level, not lost", () => {
    const e = runEvents();
    const state = fold([e.start(), e.agent({ type: "tool_use", id: "orphan", name: "Read", input: {}, kind: "file_read", parentToolUseId: "gone" })]);
    expect(shape(state.items)).toEqual([["orphan", "running"]]);
  });

  test("a refused call is marked: Claude's permission text, or an AGENT_PERMISSION_REFUSED error after it", () => {
    const e = runEvents();
    const state = fold([
      e.start(),
      e.agent({ type: "tool_use", id: "w", name: "Write", input: { file_path: "/p/a" }, kind: "file_write", path: "a" }),
      e.agent({ type: "tool_result", toolUseId: "w", content: "Claude requested permissions to use Write, but you haven't granted it yet.", isError: true }),
      e.agent({ type: "tool_use", id: "g", name: "write_file", input: {}, kind: "file_write" }),
      e.agent({ type: "tool_result", toolUseId: "g", content: "Cannot enable privileged approval modes in an untrusted folder.", isError: true }),
      e.agent({ type: "error", code: "AGENT_PERMISSION_REFUSED", message: "the agent refused" }),
      e.agent({ type: "tool_use", id: "b", name: "Bash", input: { command: "false" }, kind: "command" }),
      e.agent({ type: "tool_result", toolUseId: "b", content: "Exit code 1", isError: true, exitCode: 1 }),
    ]);
    const tools = state.items.filter((item): item is ToolItem => item.kind === "tool");
    expect(tools.map((t) => [t.id, t.state, t.refused ?? false])).toEqual([
      ["w", "error", true],
      ["g", "error", true],
      ["b", "error", false],
    ]);
  });
});
