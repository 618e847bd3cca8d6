// Issue #34: what GET /api/runs/:id/history coalesces, and what it never merges (the fold must see the same items).
import { expect, test } from "bun:test";
import type { RunEvent } from "../../server/contracts/runs.ts";
import { RunHistory } from "../../server/runs/history.ts";
import { runEvents } from "../support/web-run-events.ts";

function coalesce(events: RunEvent[]): RunEvent[] {
  const history = new RunHistory();
  for (const event of events) history.push(event);
  return history.events;
}

const summary = (events: RunEvent[]) =>
  events.map((e) => {
    if (e.type === "stderr" || e.type === "stdout") return `${e.id}:${e.type}:${e.chunk}`;
    if (e.type === "agent" && "delta" in e.event) return `${e.id}:${e.event.type}${"id" in e.event ? `(${e.event.id})` : ""}:${e.event.delta}`;
    return `${e.id}:${e.type}${e.type === "agent" ? `:${e.event.type}` : ""}`;
  });

test("adjacent deltas of one stream become one event with the first one's id and ts; other streams stay apart", () => {
  const e = runEvents();
  const events = [
    e.start(),
    e.agent({ type: "thinking_delta", delta: "a" }),
    e.agent({ type: "thinking_delta", delta: "b" }),
    e.agent({ type: "text_delta", delta: "c" }),
    e.agent({ type: "text_delta", delta: "d" }),
    e.agent({ type: "tool_input_delta", id: "t1", name: "Bash", delta: "{" }),
    e.agent({ type: "tool_input_delta", id: "t2", name: "Bash", delta: "[" }),
    e.agent({ type: "tool_input_delta", id: "t2", name: "Bash", delta: "]" }),
    e.stderr("x"),
    e.stderr("y"),
    e.agent({ type: "text_delta", delta: "e" }),
    e.end(),
  ];
  const before = JSON.stringify(events);
  const coalesced = coalesce(events);
  expect(summary(coalesced)).toEqual([
    "0:start",
    "1:thinking_delta:ab",
    "3:text_delta:cd",
    "5:tool_input_delta(t1):{",
    "6:tool_input_delta(t2):[]",
    "8:stderr:xy",
    "10:text_delta:e",
    "11:end",
  ]);
  expect(coalesced[2]!.ts).toBe(events[3]!.ts);
  // The caller's events are left as they were.
  expect(JSON.stringify(events)).toBe(before);
});

test("a history within its size is not cut", () => {
  const e = runEvents();
  const events = coalesce([e.start(), e.agent({ type: "text_delta", delta: "x".repeat(1000) }), e.end()]);
  expect(events.some((event) => event.type === "diagnostic")).toBe(false);
});

test("past its size a history keeps every call, bounded: a huge input is a note, a huge result its beginning", () => {
  const history = new RunHistory({ maxChars: 100 });
  const e = runEvents();
  const huge = "y".repeat(50_000);
  for (const event of [
    e.start(),
    e.agent({ type: "text_delta", delta: "x".repeat(200) }),
    e.agent({ type: "tool_use", id: "w", name: "Write", input: { file_path: "/p/big.txt", content: huge }, kind: "file_write", path: "big.txt" }),
    e.agent({ type: "tool_result", toolUseId: "w", content: huge }),
    e.end(),
  ]) {
    history.push(event);
  }
  const [, marker, use, result, end] = history.events;
  expect(marker).toMatchObject({ type: "diagnostic", kind: "output_truncated", detail: { omittedChars: 200, totalChars: 200 } });
  expect(use).toMatchObject({ event: { type: "tool_use", name: "Write", kind: "file_write", path: "big.txt", input: { omitted: "50,039 characters of input are left out here" } } });
  expect(result).toMatchObject({ event: { type: "tool_result", toolUseId: "w" } });
  expect((result as Extract<RunEvent, { type: "agent" }>).event).toHaveProperty("content", huge.slice(0, 20_000));
  expect(end?.type).toBe("end");
  expect(JSON.stringify(history.events).length).toBeLessThan(25_000);
});
