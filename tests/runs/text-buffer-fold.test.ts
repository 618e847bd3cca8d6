import { expect, test } from "bun:test";
import { heapStats } from "bun:jsc";
import { EventFolder } from "../../server/runs/fold.ts";
import { SINK_AFTER_CHARS, TextBuffer } from "../../server/runs/text-buffer.ts";

test("TextBuffer keeps every delta in order across block boundaries", () => {
  const buffer = new TextBuffer("start:");
  const parts = Array.from({ length: 1000 }, (_, i) => `${i},`);
  for (const part of parts) buffer.append(part);
  expect(buffer.toString()).toBe(`start:${parts.join("")}`);
});

test("a long buffer keeps every character through its sink: accents, emoji split between deltas, lone surrogates", () => {
  const [high, low] = ["🚀".charAt(0), "🚀".charAt(1)];
  // Every fifth delta ends in half a rocket and the next one starts with the other half: some fall between blocks.
  const deltas = Array.from({ length: 12_000 }, (_, i) => `${i % 5 === 1 ? low : ""}héllo ${i} — ok${i % 5 === 0 ? high : ""}`);
  const buffer = new TextBuffer();
  for (const delta of deltas) buffer.append(delta);
  expect(buffer.inSink).toBe(true);
  const whole = deltas.join("");
  expect(whole.length).toBeGreaterThan(2 * SINK_AFTER_CHARS);
  expect(buffer.toString()).toBe(whole);
  expect(buffer.inSink).toBe(false); // read: strings from then on
  buffer.append("more");
  expect(buffer.toString()).toBe(`${whole}more`);

  // A lone surrogate sends the text back to strings, every character kept.
  const lone = new TextBuffer();
  const withLone = [...deltas.slice(0, 8000), `a lone low ${low} here`, ...deltas.slice(8000, 8100), `ends alone ${high}`];
  for (const delta of withLone.slice(0, 8000)) lone.append(delta);
  expect(lone.inSink).toBe(true);
  for (const delta of withLone.slice(8000)) lone.append(delta);
  expect(lone.inSink).toBe(false);
  expect(lone.toString()).toBe(withLone.join(""));
});

test("a long buffer's text is held outside the collected heap until it is read", () => {
  const line = "line of a long answer, thirty-two\n";
  const lines = Math.floor((4 * 1024 * 1024) / line.length);
  Bun.gc(true);
  const before = heapStats().heapSize;
  const buffer = new TextBuffer();
  for (let i = 0; i < lines; i++) buffer.append(`${line.slice(0, -2)}${i % 10}\n`);
  Bun.gc(true);
  // 4 MB of text: as strings the heap grows by that much; in the sink, by almost nothing.
  expect(heapStats().heapSize - before).toBeLessThan(1024 * 1024);
  const text = buffer.toString();
  expect(text.length).toBe(lines * line.length);
  expect(text.endsWith(`${line.slice(0, -2)}${(lines - 1) % 10}\n`)).toBe(true);
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

// Issue #17: a huge answer must not be folded whole into its stored message.
test("EventFolder keeps a bounded beginning and end of a huge answer, marks the cut and spills the whole text", () => {
  const spilled: string[] = [];
  const folder = new EventFolder({ maxKeptChars: 1000, tailChars: 100, spill: { write: (text) => void spilled.push(text) } });
  folder.push({ type: "text_delta", delta: "a".repeat(600) });
  folder.push({ type: "tool_use", id: "t", name: "Read", input: { path: "x" }, kind: "file_read" });
  const deltas = Array.from({ length: 5000 }, (_, i) => `${i % 10}`.repeat(10));
  for (const delta of deltas) folder.push({ type: "text_delta", delta });
  folder.push({ type: "tool_use", id: "u", name: "Read", input: { path: "y" }, kind: "file_read" });
  folder.push({ type: "usage", usage: { input_tokens: 1, output_tokens: 2 } });
  const whole = "a".repeat(600) + deltas.join("");
  expect(spilled.join("")).toBe(whole);
  const events = folder.events;
  const keptText = events.flatMap((e) => (e.type === "text" ? [e.text] : []));
  expect(keptText.join("").length).toBeLessThanOrEqual(1100);
  expect(keptText[0]).toBe("a".repeat(600));
  expect(keptText.at(-1)).toBe(whole.slice(-100));
  const marker = events.find((e) => e.type === "truncated");
  // Left out: the tool call after the cut.
  expect(marker).toEqual({ type: "truncated", totalChars: whole.length, omittedChars: whole.length - keptText.join("").length, omittedEvents: 1, fullOutput: true });
  // Tool calls after the cut are left out; usage is kept.
  expect(events.filter((e) => e.type === "tool_use").map((e) => (e.type === "tool_use" ? e.id : ""))).toEqual(["t"]);
  expect(events.at(-1)).toEqual({ type: "usage", inputTokens: 1, outputTokens: 2 });
  expect(folder.text.length).toBeLessThan(1200);
  expect(folder.text.endsWith(whole.slice(-100))).toBe(true);
});

test("EventFolder under its limit folds as before, with no marker", () => {
  const folder = new EventFolder({ maxKeptChars: 1000, spill: { write: () => expect.unreachable() } });
  folder.push({ type: "text_delta", delta: "hello" });
  expect(folder.events).toEqual([{ type: "text", text: "hello" }]);
  expect(folder.truncated).toBe(false);
});

test("EventFolder cut by tool results: later tool calls and thinking are counted as left out, the short answer is kept whole", () => {
  const folder = new EventFolder({ maxKeptChars: 50_000, tailChars: 1000 });
  for (let i = 0; i < 5; i++) {
    folder.push({ type: "tool_use", id: `t${i}`, name: "Read", input: {}, kind: "file_read" });
    folder.push({ type: "tool_result", toolUseId: `t${i}`, content: "r".repeat(20_000) });
  }
  folder.push({ type: "thinking_delta", delta: "hmm" });
  folder.push({ type: "thinking_delta", delta: "…" });
  folder.push({ type: "text_delta", delta: "Done." });
  const marker = folder.events.find((e) => e.type === "truncated");
  // t2's result crossed the limit; t3's and t4's calls and results and one stretch of thinking were left out.
  expect(marker).toEqual({ type: "truncated", omittedChars: 0, totalChars: 5, omittedEvents: 5, fullOutput: false });
  expect(folder.text).toBe("Done.");
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
