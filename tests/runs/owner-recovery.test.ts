// Issue #17: a run is ended as interrupted when the od process that owned it is gone — and a zombie of that process,
// or another process that got its pid, is gone too. Only the same process, still running, keeps its runs.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { processState, type ProcessIdentity } from "../../server/runs/process-identity.ts";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import { runHarness, type RunHarness } from "../support/fake-agents.ts";
import { startZombie } from "../support/zombie.ts";

const claudeText = [{ readLine: true }, { outFile: join(import.meta.dir, "..", "fixtures", "claude", "text.jsonl") }];

function leaveRunning(h: RunHarness, id: string, conversationId: string, owner: ProcessIdentity): void {
  h.store.runs.create({ id, projectId: h.projectId, conversationId, agentId: "claude", model: null, reasoning: null, owner });
  h.store.runs.markRunning(id, null);
}

describe("owners of interrupted runs", () => {
  test("a zombie owner and a reused pid are dead; the same process, still running, keeps its run", async () => {
    await using h = await runHarness({ defs: [getAgentDef("claude")!], shims: { claude: undefined }, steps: claudeText });
    const { conversationId } = await h.run({ agentId: "claude", message: "one" });
    // A zombie, as a SIGKILLed daemon is until its parent waits for it; its keeper a running process.
    await using zombieAndKeeper = await startZombie();
    const { zombiePid: zombie, keeper } = zombieAndKeeper;
    const live = processState(keeper.pid);
    if (live.state !== "running") throw new Error("the keeper is not running");

    leaveRunning(h, "run_zombie_owner", conversationId, { pid: zombie, startTime: null });
    leaveRunning(h, "run_reused_pid", conversationId, { pid: keeper.pid, startTime: `${live.startTime} (an earlier process)` });
    leaveRunning(h, "run_live_owner", conversationId, { pid: keeper.pid, startTime: live.startTime });

    expect(h.service.recoverInterruptedRuns()).toBe(2);
    expect(h.service.get("run_zombie_owner")).toMatchObject({ status: "failed", failureDetail: "daemon_restart" });
    expect(h.service.get("run_reused_pid")).toMatchObject({ status: "failed", failureDetail: "daemon_restart" });
    expect(h.service.get("run_live_owner")!.status).toBe("running");
  });
});
