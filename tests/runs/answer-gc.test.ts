// A long run's folded answer is written after a garbage collection, so its brief copies reuse the stream's garbage
// instead of growing the heap (bench/od-run.ts measures the peak); so is any answer once the process's runs together
// have logged much event text since the last one (bench/latency.ts's ten runs); a short run's end pays for none.
import { expect, test } from "bun:test";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import { createTextMeter, type TextMeter } from "../../server/runs/garbage-pacer.ts";
import { LARGE_FOLD_CHARS, LOGGED_CHARS_BEFORE_ANSWER_GC } from "../../server/runs/run-execution.ts";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";
import { endOf, runHarness } from "../support/fake-agents.ts";

const TEXT_LINE = JSON.stringify({
  type: "assistant",
  message: { id: "m{{i}}", type: "message", role: "assistant", model: "claude-test", content: [{ type: "text", text: "line {{i}} of a long answer, long enough to add up\n" }] },
  session_id: "s-1",
});
const RESULT = JSON.stringify({ type: "result", subtype: "success", is_error: false, result: "done", session_id: "s-1", usage: { input_tokens: 1, output_tokens: 1 } });

/** A claude run answering `lines` text lines; returns how many collections the service asked for, and the stored
 * answer's length at the first one. */
async function collectionsFor(lines: number, loggedText?: TextMeter): Promise<{ collections: number; storedAnswerChars: number | undefined }> {
  let collections = 0;
  let storedAnswerChars: number | undefined;
  const harness: { current?: Awaited<ReturnType<typeof runHarness>> } = {};
  await using h = await runHarness({
    defs: [getAgentDef("claude")! as RuntimeAgentDef],
    shims: { claude: undefined },
    steps: [{ readLine: true }, { repeat: lines, out: TEXT_LINE }, { out: RESULT }],
    ...(loggedText ? { loggedText } : {}),
    collectGarbage: () => {
      collections++;
      const { store, service, projectId } = harness.current!;
      const conversationId = service.list({ projectId })[0]!.conversationId;
      storedAnswerChars ??= store.messages.list(conversationId).at(-1)!.text.length;
    },
  });
  harness.current = h;
  const { events } = await h.run({ agentId: "claude", message: "talk" });
  expect(endOf(events).status).toBe("succeeded");
  return { collections, storedAnswerChars };
}

test("a run whose folded answer is large is stored after one collection", async () => {
  const lines = Math.ceil(LARGE_FOLD_CHARS / 50) + 1000;
  // Before the folded answer is stored: the collection is for the copies that storing it makes.
  expect(await collectionsFor(lines)).toEqual({ collections: 1, storedAnswerChars: 0 });
}, 60_000);

test("a short run's end collects nothing", async () => {
  expect((await collectionsFor(20)).collections).toBe(0);
}, 30_000);

test("once the process's runs have logged much event text since the last collection, a short run's end collects first", async () => {
  const loggedText = createTextMeter();
  // What other runs of the process streamed since the last collection.
  loggedText.count(LOGGED_CHARS_BEFORE_ANSWER_GC);
  expect(await collectionsFor(20, loggedText)).toEqual({ collections: 1, storedAnswerChars: 0 });
  // The collection took that text's garbage: the meter starts again, and the next short run's end collects nothing.
  expect(loggedText.chars).toBe(0);
  expect((await collectionsFor(20, loggedText)).collections).toBe(0);
  // That run's own events were counted.
  expect(loggedText.chars).toBeGreaterThan(20 * "line 1 of a long answer, long enough to add up".length);
}, 30_000);
