// Issue #17: a run is ended as interrupted when the od process that owned it is gone — and a zombie of that process,
// or another process that got its pid, is gone too. Only the same process, still running, keeps its runs.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { spawnChild } from "../../server/platform/process.ts";
import { processState, type ProcessIdentity } from "../../server/runs/process-identity.ts";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import { runHarness, type RunHarness } from "../support/fake-agents.ts";

const claudeText = [{ readLine: true }, { outFile: join(import.meta.dir, "..", "fixtures", "claude", "text.jsonl") }];

async function firstLine(child: { stdout: AsyncIterable<Uint8Array> }): Promise<string> {
  let text = "";
  for await (const chunk of child.stdout) {
    text += new TextDecoder().decode(chunk);
    if (text.includes("\n")) break;
  }
  return text.split("\n")[0]!;
}

function leaveRunning(h: RunHarness, id: string, conversationId: string, owner: ProcessIdentity): void {
  h.store.runs.create({ id, projectId: h.projectId, conversationId, agentId: "claude", model: null, reasoning: null, owner });
  h.store.runs.markRunning(id, null);
}

describe("owners of interrupted runs", () => {
  test("a zombie owner and a reused pid are dead; the same process, still running, keeps its run", async () => {
    await using h = await runHarness({ defs: [getAgentDef("claude")!], shims: { claude: undefined }, steps: claudeText });
    const { conversationId } = await h.run({ agentId: "claude", message: "one" });
    // `sleep 0` exits at once; the shell becomes `sleep 600`, which never reaps it: a zombie, as a SIGKILLed daemon
    // is until its parent waits for it.
    const keeper = await spawnChild({ argv: ["sh", "-c", "sleep 0 & echo $!; exec sleep 600"], stdin: "ignore" });
    try {
      const zombie = Number(await firstLine(keeper));
      const deadline = Date.now() + 10_000;
      while (processState(zombie).state !== "zombie" && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      const live = processState(keeper.pid);
      if (live.state !== "running") throw new Error("the keeper is not running");

      leaveRunning(h, "run_zombie_owner", conversationId, { pid: zombie, startTime: null });
      leaveRunning(h, "run_reused_pid", conversationId, { pid: keeper.pid, startTime: `${live.startTime} (an earlier process)` });
      leaveRunning(h, "run_live_owner", conversationId, { pid: keeper.pid, startTime: live.startTime });

      expect(h.service.recoverInterruptedRuns()).toBe(2);
      expect(h.service.get("run_zombie_owner")).toMatchObject({ status: "failed", failureDetail: "daemon_restart" });
      expect(h.service.get("run_reused_pid")).toMatchObject({ status: "failed", failureDetail: "daemon_restart" });
      expect(h.service.get("run_live_owner")!.status).toBe("running");
    } finally {
      keeper.kill("SIGKILL");
      await keeper.exited;
    }
  });
});
