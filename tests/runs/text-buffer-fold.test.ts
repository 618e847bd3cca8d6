import { expect, test } from "bun:test";
import { EventFolder } from "../../server/runs/fold.ts";
import { TextBuffer } from "../../server/runs/text-buffer.ts";

test("TextBuffer keeps every delta in order across block boundaries", () => {
  const buffer = new TextBuffer("start:");
  const parts = Array.from({ length: 1000 }, (_, i) => `${i},`);
  for (const part of parts) buffer.append(part);
  expect(buffer.toString()).toBe(`start:${parts.join("")}`);
});

test("EventFolder merges consecutive deltas and splits text around tool calls", () => {
  const folder = new EventFolder();
  for (let i = 0; i < 600; i++) folder.push({ type: "text_delta", delta: "a" });
  folder.push({ type: "tool_use", id: "t", name: "Write", input: {}, kind: "file_write", path: "x.html" });
  folder.push({ type: "text_delta", delta: "b" });
  expect(folder.text).toBe(`${"a".repeat(600)}b`);
  expect(folder.events).toEqual([
    { type: "text", text: "a".repeat(600) },
    { type: "tool_use", id: "t", name: "Write", input: {}, kind: "file_write", path: "x.html" },
    { type: "text", text: "b" },
  ]);
});

test("EventFolder keeps a sub-agent's parent link and a command's exit code, so a reload shows the same tree", () => {
  const folder = new EventFolder();
  folder.push({ type: "tool_use", id: "task", name: "Task", input: { description: "d" }, kind: "task" });
  folder.push({ type: "tool_use", id: "ls", name: "Bash", input: { command: "ls" }, kind: "command", parentToolUseId: "task" });
  folder.push({ type: "tool_result", toolUseId: "ls", content: "no", isError: true, exitCode: 2, parentToolUseId: "task" });
  expect(folder.events.slice(1)).toEqual([
    { type: "tool_use", id: "ls", name: "Bash", input: { command: "ls" }, kind: "command", parentToolUseId: "task" },
    { type: "tool_result", toolUseId: "ls", content: "no", isError: true, exitCode: 2, parentToolUseId: "task" },
  ]);
});
