// A folded answer that holds much is written after a garbage collection, so its brief copies reuse the stream's
// garbage instead of growing the heap; a long answer's text went to its pieces as it streamed (bench/od-run.ts
// measures the peak), so it holds little. So is any answer once the process's runs together have logged much event
// text since the last one (bench/latency.ts's ten runs); a short run's end pays for none.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import { createGarbagePacer, createTextMeter, type TextMeter } from "../../server/runs/garbage-pacer.ts";
import { LARGE_FOLD_CHARS, LOGGED_CHARS_BEFORE_ANSWER_GC } from "../../server/runs/run-execution.ts";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";
import { endOf, runHarness } from "../support/fake-agents.ts";

const TEXT_LINE = JSON.stringify({
  type: "assistant",
  message: { id: "m{{i}}", type: "message", role: "assistant", model: "claude-test", content: [{ type: "text", text: "line {{i}} of a long answer, long enough to add up\n" }] },
  session_id: "s-1",
});
/** A call whose input is 20,000 characters: a fold holds it whole (only text and thinking go to pieces). */
const LARGE_CALL_LINE = JSON.stringify({
  type: "assistant",
  message: { id: "m{{i}}", type: "message", role: "assistant", model: "claude-test", content: [{ type: "tool_use", id: "t{{i}}", name: "Write", input: { file_path: "f{{i}}.txt", content: "x".repeat(20_000) } }] },
  session_id: "s-1",
});
const RESULT = JSON.stringify({ type: "result", subtype: "success", is_error: false, result: "done", session_id: "s-1", usage: { input_tokens: 1, output_tokens: 1 } });

/** A claude run answering `lines` text lines; returns how many collections the service asked for, and the stored
 * answer's length at the first one. */
async function collectionsFor(lines: number, loggedText?: TextMeter, line = TEXT_LINE): Promise<{ collections: number; storedAnswerChars: number | undefined }> {
  let collections = 0;
  let storedAnswerChars: number | undefined;
  const harness: { current?: Awaited<ReturnType<typeof runHarness>> } = {};
  await using h = await runHarness({
    defs: [getAgentDef("claude")! as RuntimeAgentDef],
    shims: { claude: undefined },
    steps: [{ readLine: true }, { repeat: lines, out: line }, { out: RESULT }],
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

test("a run whose folded answer holds much is stored after one collection", async () => {
  const calls = Math.ceil(LARGE_FOLD_CHARS / 20_000) + 5;
  // Before the folded answer is stored: the collection is for the copies that storing it makes.
  expect(await collectionsFor(calls, undefined, LARGE_CALL_LINE)).toEqual({ collections: 1, storedAnswerChars: 0 });
}, 60_000);

test("a run whose long answer went to its pieces as it streamed is stored without one", async () => {
  expect((await collectionsFor(Math.ceil(LARGE_FOLD_CHARS / 50) + 1000)).collections).toBe(0);
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

/**
 * `runs` claude runs held at a gate after their first line, then streaming `lines` text lines each while all are live:
 * the text each pacer counted.
 */
async function pacedTextOf(runs: 1 | 2, lines: number): Promise<{ together: number; alone: number }> {
  const counting = () => createGarbagePacer({ everyChars: Infinity, minIntervalMs: 0, collect: () => {} });
  const together = counting();
  const alone = counting();
  await using h = await runHarness({ defs: [getAgentDef("claude")! as RuntimeAgentDef], shims: { claude: undefined }, steps: [], concurrentRunsPacer: together, loneRunPacer: alone });
  const gate = join(h.projectDir, "..", "gate");
  h.script([{ readLine: true }, { out: TEXT_LINE.replace("{{i}}", "first") }, { waitForFile: gate }, { repeat: lines, out: TEXT_LINE }, { out: RESULT }]);
  const started = Array.from({ length: runs }, () => h.run({ agentId: "claude", message: "talk" }));
  // Both are live once each has logged its first line.
  while (h.service.list({ projectId: h.projectId }).filter((run) => run.status === "running").length < runs) await Bun.sleep(10);
  await Bun.sleep(50);
  writeFileSync(gate, "");
  for (const { events } of await Promise.all(started)) expect(endOf(events).status).toBe("succeeded");
  return { together: together.totalChars, alone: alone.totalChars };
}

test("runs streaming together count their event text into the pacer that collects for them, a run alone into its own", async () => {
  const lines = 200;
  const lineText = "line 1 of a long answer, long enough to add up".length;
  // Each run's 200 lines logged while the other was live, at least the text of each line.
  const two = await pacedTextOf(2, lines);
  expect(two.together).toBeGreaterThan(2 * lines * lineText);
  const one = await pacedTextOf(1, lines);
  expect(one.together).toBe(0);
  expect(one.alone).toBeGreaterThan(lines * lineText);
}, 60_000);
