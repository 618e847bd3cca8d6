/**
 * The fold finds a tool call by its id and the last thinking block through an index kept beside each list (a scan
 * per event made opening a 100k-event run from history quadratic). Whatever the events, the index must answer what
 * a scan of the list answers: checked after every event of long random streams with repeated ids, sub-agents,
 * snapshots between events (which copy the lists a later event writes) and a failed end that drops items.
 */
import { describe, expect, test } from "bun:test";
import type { AgentEvent } from "../../server/contracts/events.ts";
import { RunDraft, type ItemList } from "../../web/state/run-draft.ts";
import { foldRunEvent } from "../../web/state/run-fold.ts";
import { emptyRunState, type RunItem, type ThinkingItem, type ToolItem } from "../../web/state/run-state.ts";
import { runEvents } from "../support/web-run-events.ts";

/** A small deterministic generator (mulberry32), so a failing stream can be replayed from its seed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomEvent(next: () => number, tasks: string[]): AgentEvent {
  const pick = <T>(from: readonly T[]) => from[Math.floor(next() * from.length)]!;
  // Few ids, so calls repeat an id and results find older calls; some calls belong to a sub-agent.
  const id = `toolu_${Math.floor(next() * 12)}`;
  const parent = tasks.length && next() < 0.3 ? { parentToolUseId: pick(tasks) } : {};
  switch (pick(["text", "text", "thinking_start", "thinking_delta", "thinking_end", "thinking_tokens", "tool_use", "task", "tool_result", "tool_result"] as const)) {
    case "text":
      return { type: "text_delta", delta: pick(["a", "b ", "done"]) };
    case "thinking_start":
      return { type: "thinking_start" };
    case "thinking_delta":
      return { type: "thinking_delta", delta: "hm" };
    case "thinking_end":
      return { type: "thinking_end" };
    case "thinking_tokens":
      return { type: "thinking_tokens", tokens: Math.floor(next() * 100) };
    case "tool_use":
      return { type: "tool_use", id, name: "Bash", kind: "command", input: { command: "ls" }, ...parent };
    case "task":
      tasks.push(`task_${tasks.length}`);
      return { type: "tool_use", id: tasks.at(-1)!, name: "Task", kind: "task", input: {} };
    case "tool_result":
      return { type: "tool_result", toolUseId: next() < 0.2 && tasks.length ? pick(tasks) : id, content: "ok", isError: next() < 0.2, ...parent };
  }
}

/** Every list of the tree (the run's own, and each sub-agent's), as the draft hands them to the fold. */
function listsOf(draft: RunDraft): ItemList[] {
  const lists = [draft.root];
  const walk = (items: readonly RunItem[]) => {
    for (const item of items) {
      if (item.kind !== "tool" || !item.children) continue;
      lists.push(draft.list(item.id));
      walk(item.children);
    }
  };
  walk(draft.state.items);
  return lists;
}

function expectIndexAgreesWithScan(list: ItemList): void {
  const scan = (test: (item: RunItem) => boolean) => list.items.findLastIndex(test);
  for (const kind of ["text", "thinking", "tool", "notice", "approval"] as const) expect(list.newestOf(kind)).toBe(scan((item) => item.kind === kind));
  for (const item of list.items) if (item.kind === "tool") expect(list.toolCall(item.id)).toBe(scan((other) => other.kind === "tool" && other.id === item.id));
  expect(list.toolCall("never-called")).toBe(-1);
}

describe("the fold's list index", () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    test(`agrees with a scan of every list after each of 400 random events (seed ${seed})`, () => {
      const next = random(seed);
      const e = runEvents();
      const draft = new RunDraft(emptyRunState("run-1"));
      const tasks: string[] = [];
      foldRunEvent(draft, e.start());
      for (let i = 0; i < 400; i++) {
        foldRunEvent(draft, e.agent(randomEvent(next, tasks)));
        if (next() < 0.2) draft.snapshot();
        for (const list of listsOf(draft)) expectIndexAgreesWithScan(list);
      }
      foldRunEvent(draft, e.agent({ type: "text_delta", delta: "\nit failed" }));
      foldRunEvent(draft, e.end({ status: "failed", reason: "it failed" }));
      for (const list of listsOf(draft)) expectIndexAgreesWithScan(list);
    });
  }

  test("a result settles its own call wherever it sits, and only the last thinking block is closed", () => {
    const e = runEvents();
    const draft = new RunDraft(emptyRunState("run-1"));
    const fold = (event: AgentEvent) => foldRunEvent(draft, e.agent(event));
    fold({ type: "thinking_start" });
    fold({ type: "thinking_delta", delta: "first" });
    fold({ type: "tool_use", id: "t1", name: "Bash", kind: "command", input: {} });
    fold({ type: "tool_result", toolUseId: "t1", content: "one" });
    draft.snapshot();
    fold({ type: "tool_use", id: "t2", name: "Bash", kind: "command", input: {} });
    fold({ type: "tool_use", id: "t3", name: "Bash", kind: "command", input: {} });
    fold({ type: "thinking_start" });
    fold({ type: "thinking_tokens", tokens: 7 });
    fold({ type: "tool_result", toolUseId: "t2", content: "two" });
    fold({ type: "tool_use", id: "t1", name: "Read", kind: "file_read", input: {} });
    const state = draft.snapshot();
    const tools = state.items.filter((item): item is ToolItem => item.kind === "tool");
    expect(tools.map((tool) => [tool.id, tool.name, tool.state, tool.result])).toEqual([
      ["t1", "Read", "done", "one"],
      ["t2", "Bash", "done", "two"],
      ["t3", "Bash", "running", undefined],
    ]);
    const thinking = state.items.filter((item): item is ThinkingItem => item.kind === "thinking");
    expect(thinking.map((block) => [block.open, block.tokens])).toEqual([
      [false, undefined],
      [false, 7],
    ]);
  });
});
