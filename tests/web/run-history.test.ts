// Issue #34: a finished turn is shown by folding its run's stored events with the live fold; a message without stored
// events still shows its text and ending. Issue #17: a history cut for size says so and links to the whole answer.
import { expect, test } from "bun:test";
import type { Message } from "../../server/contracts/projects.ts";
import type { RunEvent } from "../../server/contracts/runs.ts";
import { RunHistory } from "../../server/runs/history.ts";
import { historyState, runStateFromEvents } from "../../web/state/run-history.ts";
import type { NoticeItem } from "../../web/state/run-state.ts";
import { runEvents } from "../support/web-run-events.ts";

const message = (over: Partial<Message>): Message => ({
  id: "msg_1",
  conversationId: "cnv_1",
  role: "assistant",
  text: "",
  runId: "run_1",
  runStatus: "succeeded",
  agentId: "deepseek",
  startedAt: 1_000,
  endedAt: 4_000,
  files: [],
  createdAt: 1,
  ...over,
});

function history(events: RunEvent[], options: ConstructorParameters<typeof RunHistory>[0]): RunEvent[] {
  const h = new RunHistory(options);
  for (const event of events) h.push(event);
  return h.events;
}

test("a history past its size is cut where the cut is, with a warning linking to the whole answer", () => {
  const e = runEvents("run_1");
  const events = history(
    [
      e.start(),
      e.agent({ type: "text_delta", delta: "beginning " }),
      e.agent({ type: "text_delta", delta: "x".repeat(50) }),
      e.agent({ type: "tool_use", id: "t", name: "Bash", input: { command: "ls" }, kind: "command" }),
      e.agent({ type: "tool_result", toolUseId: "t", content: "a.txt" }),
      e.agent({ type: "text_delta", delta: "end" }),
      e.agent({ type: "usage", usage: { input_tokens: 5 } }),
      e.end(),
    ],
    { maxChars: 20, fullOutput: true },
  );
  const state = runStateFromEvents("run_1", events);
  expect(state.items.map((item) => item.kind)).toEqual(["text", "notice", "tool"]);
  expect(state.items[0]).toMatchObject({ text: "beginning " });
  expect(state.items[1]).toMatchObject({ level: "warning", code: "OUTPUT_TRUNCATED", link: { href: "/api/runs/run_1/output", label: "Open the whole answer" } });
  expect((state.items[1] as NoticeItem).message).toBe(
    "This answer is too long to show whole: 53 of its 63 characters and the thinking, tool input and raw output after them are left out here.",
  );
  // Everything but deltas is kept: the call settles with its result, usage and the ending show.
  expect(state.items[2]).toMatchObject({ state: "done", result: "a.txt" });
  expect(state.usage?.inputTokens).toBe(5);
  expect(state.end?.status).toBe("succeeded");
});

test("without the whole answer on disk the cut has no link", () => {
  const e = runEvents("run_1");
  const events = history([e.start(), e.agent({ type: "text_delta", delta: "abc" }), e.agent({ type: "text_delta", delta: "def" }), e.end()], { maxChars: 4 });
  const state = runStateFromEvents("run_1", events);
  expect(state.items[1]).toMatchObject({ code: "OUTPUT_TRUNCATED" });
  expect(state.items[1]).not.toHaveProperty("link");
});

test("a message with no stored events shows its own text and how its run ended", () => {
  const state = historyState(message({ text: "an old answer", runStatus: "canceled", files: ["a.md"] }), []);
  expect(state.items).toEqual([{ kind: "text", key: expect.any(String), text: "an old answer" }]);
  expect(state.agentId).toBe("deepseek");
  expect(state.end).toMatchObject({ status: "canceled", durationMs: 3_000, files: ["a.md"] });
  expect(state.files).toEqual(["a.md"]);
  expect(historyState(message({ runStatus: "running" }), []).end).toBeUndefined();
  expect(historyState(message({ runId: null, agentId: null, runStatus: null, text: "hi" }), []).items).toHaveLength(1);
});

test("stored events win over the message's text: the turn is what its run streamed", () => {
  const e = runEvents("run_1");
  const state = historyState(message({ text: "stale" }), [e.start({ model: "m1" }), e.agent({ type: "text_delta", delta: "streamed" }), e.end()]);
  expect(state.items).toEqual([{ kind: "text", key: expect.any(String), text: "streamed" }]);
  expect(state.model).toBe("m1");
});
