import { expect, test } from "bun:test";
import { heapStats } from "bun:jsc";
import { EventFolder } from "../../server/runs/fold.ts";
import { PIECE_CHARS, TextBuffer } from "../../server/runs/text-buffer.ts";

test("TextBuffer keeps every delta in order across block boundaries", () => {
  const buffer = new TextBuffer("start:");
  const parts = Array.from({ length: 1000 }, (_, i) => `${i},`);
  for (const part of parts) buffer.append(part);
  expect(buffer.toString()).toBe(`start:${parts.join("")}`);
});

/** A TextBuffer that hands its pieces to an array (refusing them from piece `refuseFrom` on). */
function piecedBuffer(refuseFrom = Infinity) {
  const pieces: string[] = [];
  const buffer = new TextBuffer("", (piece) => pieces.length < refuseFrom && pieces.push(piece) > 0);
  return { buffer, pieces };
}

test("a long buffer hands its text out in pieces of whole characters and holds only the rest: accents, emoji split between deltas", () => {
  const [high, low] = ["🚀".charAt(0), "🚀".charAt(1)];
  // Every fifth delta ends in half a rocket and the next one starts with the other half: some fall between pieces.
  const deltas = Array.from({ length: 30_000 }, (_, i) => `${i % 5 === 1 ? low : ""}héllo ${i} — ok${i % 5 === 0 ? high : ""}`);
  const { buffer, pieces } = piecedBuffer();
  for (const delta of deltas) buffer.append(delta);
  const whole = deltas.join("");
  expect(pieces.length).toBeGreaterThan(4);
  for (const piece of pieces) {
    expect(piece.isWellFormed()).toBe(true);
    expect(piece.length).toBeGreaterThanOrEqual(PIECE_CHARS - 1);
  }
  expect(buffer.toString().length).toBeLessThan(PIECE_CHARS);
  expect(pieces.join("") + buffer.toString()).toBe(whole);
});

test("a text that is not well formed, or a piece refused, is held from there on, every character kept", () => {
  const low = "🚀".charAt(1);
  const deltas = Array.from({ length: 20_000 }, (_, i) => `delta ${i} of a long answer `);
  const lone = piecedBuffer();
  const withLone = [...deltas.slice(0, 8000), `a lone low ${low} here`, ...deltas.slice(8000)];
  for (const delta of withLone) lone.buffer.append(delta);
  expect(lone.pieces.length).toBeGreaterThan(0);
  expect(lone.pieces.join("")).not.toContain(low);
  expect(lone.pieces.join("") + lone.buffer.toString()).toBe(withLone.join(""));
  expect(lone.buffer.toString().length).toBeGreaterThan(PIECE_CHARS); // held from the lone surrogate on

  const refused = piecedBuffer(2);
  for (const delta of deltas) refused.buffer.append(delta);
  expect(refused.pieces.length).toBe(2);
  expect(refused.pieces.join("") + refused.buffer.toString()).toBe(deltas.join(""));
});

test("a long buffer with somewhere to put its pieces holds about one piece of the text, however long it gets", () => {
  const line = "line of a long answer, thirty-two\n";
  const lines = Math.floor((4 * 1024 * 1024) / line.length);
  Bun.gc(true);
  const before = heapStats().heapSize;
  let stored = 0;
  const buffer = new TextBuffer("", (piece) => ((stored += piece.length), true));
  for (let i = 0; i < lines; i++) buffer.append(`${line.slice(0, -2)}${i % 10}\n`);
  Bun.gc(true);
  // 4 MB of text: as strings the heap grows by that much; handed out as pieces, by about one piece.
  expect(heapStats().heapSize - before).toBeLessThan(1024 * 1024);
  expect(stored + buffer.toString().length).toBe(lines * line.length);
  expect(buffer.toString().endsWith(`${line.slice(0, -2)}${(lines - 1) % 10}\n`)).toBe(true);
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

/** Pieces kept in memory, as the store keeps them: by part key, in order. */
function memoryPieces() {
  const parts = new Map<number, string[]>();
  return {
    parts,
    store: (key: number, piece: string) => (parts.get(key) ?? parts.set(key, []).get(key)!).push(piece) > 0,
    read: (key: number) => (parts.get(key) ?? []).join(""),
  };
}

test("EventFolder with pieces: a long part keeps only its rest and the key of its pieces; its text and a cut's spill are whole", () => {
  const pieces = memoryPieces();
  const spilled: string[] = [];
  const folder = new EventFolder({ pieces, maxKeptChars: 1_000_000, tailChars: 100, spill: { write: (text) => void spilled.push(text) } });
  const answer = Array.from({ length: 20_000 }, (_, i) => `answer line ${i}\n`);
  const thinking = Array.from({ length: 10_000 }, (_, i) => `thought ${i} `);
  for (const delta of thinking) folder.push({ type: "thinking_delta", delta });
  folder.push({ type: "tool_use", id: "t", name: "Read", input: {}, kind: "file_read" });
  folder.push({ type: "text_delta", delta: "short " });
  folder.push({ type: "tool_use", id: "u", name: "Read", input: {}, kind: "file_read" });
  for (const delta of answer) folder.push({ type: "text_delta", delta });
  const events = folder.events;
  const [thought, , short, , long] = events as Array<{ type: string; text: string; pieced?: number }>;
  // Each long part under a key of its own; the short part between them made no pieces.
  expect([thought!.pieced, short!.pieced, long!.pieced]).toEqual([0, undefined, 2]);
  expect(pieces.read(0) + thought!.text).toBe(thinking.join(""));
  expect(pieces.read(2) + long!.text).toBe(answer.join(""));
  expect(long!.text.length).toBeLessThan(70_000);
  expect(folder.text).toBe(`short ${answer.join("")}`);
  expect(spilled).toEqual([]);

  // Past its limit the fold is cut: the spill gets the whole answer so far, pieces first.
  for (let i = 0; i < 3000; i++) folder.push({ type: "text_delta", delta: "x".repeat(300) });
  expect(folder.truncated).toBe(true);
  expect(spilled.join("")).toBe(`short ${answer.join("")}${"x".repeat(900_000)}`);
});
