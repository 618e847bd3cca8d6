import { expect, test } from "bun:test";
import type { Message } from "../../server/contracts/projects.ts";
import { runStateFromMessage } from "../../web/state/persisted-fold.ts";

const message = (events: Message["events"]): Message => ({
  id: "msg_1",
  conversationId: "cnv_1",
  role: "assistant",
  text: "",
  events,
  runId: "run_1",
  runStatus: "succeeded",
  agentId: "deepseek",
  startedAt: 1,
  endedAt: 2,
  files: [],
  createdAt: 1,
});

// Issue #17: a cut answer says so where the cut is, and links to the whole answer when od kept it.
test("a truncated marker becomes a warning between the kept beginning and end, linking to the whole answer", () => {
  const state = runStateFromMessage(
    message([
      { type: "text", text: "beginning" },
      { type: "truncated", omittedChars: 5_000_000, totalChars: 5_000_009, omittedEvents: 12, fullOutput: true },
      { type: "text", text: "end" },
    ]),
  );
  expect(state.items.map((item) => item.kind)).toEqual(["text", "notice", "text"]);
  expect(state.items[1]).toMatchObject({
    kind: "notice",
    level: "warning",
    code: "OUTPUT_TRUNCATED",
    link: { href: "/api/runs/run_1/output", label: "Open the whole answer" },
  });
  expect((state.items[1] as { message: string }).message).toBe(
    "This answer is too long to show whole: 5,000,000 of its 5,000,009 characters and 12 tool calls, results or thoughts are left out here.",
  );
});

test("without the whole answer on disk the warning has no link", () => {
  const state = runStateFromMessage(message([{ type: "text", text: "a" }, { type: "truncated", omittedChars: 1, totalChars: 3, omittedEvents: 0, fullOutput: false }, { type: "text", text: "c" }]));
  expect(state.items[1]).not.toHaveProperty("link");
});
