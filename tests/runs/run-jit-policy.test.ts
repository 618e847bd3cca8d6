// A run keeps the reluctant start-up JIT until its stream proves long: a short answer ends in the interpreter (nothing
// of od is compiled that only runs once), a long one restores the normal policy once, after EVENTS_BEFORE_JIT events.
import { expect, spyOn, test } from "bun:test";
import { join } from "node:path";
import { EVENTS_BEFORE_JIT, jitAfterEvents } from "../../server/platform/jit-policy.ts";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";
import { endOf, runHarness, type FakeStep } from "../support/fake-agents.ts";

const TEXT_LINE = JSON.stringify({
  type: "assistant",
  message: { id: "m{{i}}", type: "message", role: "assistant", model: "claude-test", content: [{ type: "text", text: "line {{i}}\n" }] },
  session_id: "s-jit",
});
const RESULT_LINE = JSON.stringify({ type: "result", subtype: "success", is_error: false, result: "done", session_id: "s-jit", usage: { input_tokens: 1, output_tokens: 1 } });

async function runThrough(steps: FakeStep[]): Promise<{ callsAtCreate: unknown[][]; calls: unknown[][]; status: unknown }> {
  const setPolicy = spyOn(Bun.unsafe, "setJITPolicy");
  try {
    await using h = await runHarness({ defs: [getAgentDef("claude") as RuntimeAgentDef], shims: { claude: undefined }, steps });
    const created = await h.service.create({ projectId: h.projectId, agentId: "claude", message: "hello" });
    const callsAtCreate = [...setPolicy.mock.calls];
    const events = [];
    for await (const event of h.service.events(created.runId)) events.push(event);
    return { callsAtCreate, calls: [...setPolicy.mock.calls], status: endOf(events)?.status };
  } finally {
    setPolicy.mockRestore();
  }
}

test("a short run streams through the start-up JIT policy: creating it restores nothing, nor does its answer", async () => {
  const run = await runThrough([{ readLine: true }, { outFile: join(import.meta.dir, "..", "fixtures", "claude", "text.jsonl") }]);
  expect(run.status).toBe("succeeded");
  expect(run.callsAtCreate).toEqual([]);
  expect(run.calls).toEqual([]);
});

test(`a run that streams ${EVENTS_BEFORE_JIT} events or more restores the normal policy, once`, async () => {
  const run = await runThrough([{ readLine: true }, { repeat: EVENTS_BEFORE_JIT + 100, out: TEXT_LINE }, { out: RESULT_LINE }]);
  expect(run.status).toBe("succeeded");
  expect(run.callsAtCreate).toEqual([]);
  expect(run.calls).toEqual([[1]]);
});

test("jitAfterEvents restores the policy at the n-th event and never again", () => {
  const setPolicy = spyOn(Bun.unsafe, "setJITPolicy");
  try {
    const count = jitAfterEvents(3);
    count();
    count();
    expect(setPolicy).not.toHaveBeenCalled();
    count();
    expect(setPolicy.mock.calls).toEqual([[1]]);
    for (let i = 0; i < 10; i++) count();
    expect(setPolicy.mock.calls).toEqual([[1]]);
  } finally {
    setPolicy.mockRestore();
  }
});
