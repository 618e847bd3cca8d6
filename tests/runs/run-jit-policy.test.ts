// The daemon restores the normal JIT policy only once its start-up (engine, detection's warm-up) is over; a run
// created before that must not stream through the reluctant start-up JIT.
import { expect, spyOn, test } from "bun:test";
import { join } from "node:path";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";
import { endOf, runHarness } from "../support/fake-agents.ts";

test("creating a run restores the normal JIT policy before its agent starts", async () => {
  const setPolicy = spyOn(Bun.unsafe, "setJITPolicy");
  try {
    await using h = await runHarness({
      defs: [getAgentDef("claude") as RuntimeAgentDef],
      shims: { claude: undefined },
      steps: [{ readLine: true }, { outFile: join(import.meta.dir, "..", "fixtures", "claude", "text.jsonl") }],
    });
    const created = await h.service.create({ projectId: h.projectId, agentId: "claude", message: "hello" });
    expect(setPolicy.mock.calls).toEqual([[1]]);
    expect(h.ledger().filter((line) => line.event === "start")).toEqual([]);
    const events = [];
    for await (const event of h.service.events(created.runId)) events.push(event);
    expect(endOf(events)).toMatchObject({ status: "succeeded" });
  } finally {
    setPolicy.mockRestore();
  }
});
