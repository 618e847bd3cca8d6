// Issue #17: after `kill -9` of the daemon, the next daemon on the same data dir ends the interrupted run and sweeps
// its agent processes (TERM-ignoring ones included), even while the dead daemon is still an unreaped zombie.
import { describe, expect, test } from "bun:test";
import { readProcessSnapshot } from "../server/runs/process-tree.ts";
import { processState } from "../server/runs/process-identity.ts";
import { fakeAgentWorld } from "./support/fake-agent-daemon.ts";
import { readSse } from "./support/sse.ts";
import { killSurvivors, survivors } from "./support/survivors.ts";

const TIMEOUT = 90_000;

/** A copilot that starts a TERM-ignoring grandchild in its own session, ignores SIGTERM itself, and hangs. */
const STUBBORN_AGENT = [
  { readAll: true },
  { orphan: true },
  { ignoreTerm: true },
  { out: '{"type":"assistant.turn_start","data":{}}' },
  { hang: true },
];

/** Run the daemon under a parent that never reaps it (`sleep`), so once killed it stays a zombie. */
const underNonReapingParent = (argv: string[]) => ["sh", "-c", '"$@" & exec sleep 600', "sh", ...argv];

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("restart after kill -9", () => {
  test("a zombie owner is dead: the run ends as interrupted and no agent process survives", async () => {
    using world = fakeAgentWorld(STUBBORN_AGENT, { OD_CHAT_RUN_CANCEL_GRACE_MS: "500" });
    const first = await world.start({ wrap: underNonReapingParent });
    let second: Awaited<ReturnType<typeof world.start>> | undefined;
    let runId: string | undefined;
    try {
      runId = await world.startRun(first);
      const frames = await readSse(await world.api(first, `/api/runs/${runId}/events`), { limit: 2 });
      expect(frames.map((frame) => frame.event)).toEqual(["start", "agent"]);
      const daemonPid = (await readProcessSnapshot()).find((entry) => entry.ppid === first.child.pid)?.pid;
      expect(daemonPid).toBeGreaterThan(1);
      process.kill(daemonPid!, "SIGKILL");
      await until(() => processState(daemonPid!).state === "zombie", 10_000, "the daemon to be a zombie");
      expect(survivors(world.ledgerPath, [runId]).length).toBeGreaterThanOrEqual(2); // the agent and its orphan

      second = await world.start();
      const run = (await (await world.api(second, `/api/runs/${runId}`)).json()) as { status: string; failureDetail: string | null };
      expect(run).toMatchObject({ status: "failed", failureDetail: "daemon_restart" });
      const replay = await readSse(await world.api(second, `/api/runs/${runId}/events`));
      expect(replay.at(-1)).toMatchObject({ event: "end", data: { status: "failed", failureDetail: "daemon_restart" } });
      await until(() => survivors(world.ledgerPath, [runId!]).length === 0, 30_000, "the run's processes to be swept");
    } finally {
      await second?.stop();
      await first.stop();
      killSurvivors(world.ledgerPath, runId ? [runId] : []);
    }
  }, TIMEOUT);
});
