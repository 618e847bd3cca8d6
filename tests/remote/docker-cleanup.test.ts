// Issue #35: a run's clean-up in a paused container is not forgotten. `docker pause` freezes the run's processes and
// refuses every `docker exec`, so the sweep at cancel cannot reach them: the cancel answers at once, the run says its
// clean-up is pending, and once the container is unpaused the periodic retry ends what the run left there.
// A real Docker engine started for the test; the container shares this machine's /usr and temp dir.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import type { RunEvent } from "../../server/contracts/runs.ts";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";
import { endOf, fakeCliEnvThere, processesWithRunCookie, runHarness } from "../support/fake-agents.ts";
import { startTestDocker, type TestDocker } from "../support/dockerd.ts";
import { isLivePid, killSurvivors } from "../support/survivors.ts";

let docker: TestDocker;
beforeAll(async () => {
  docker = await startTestDocker();
}, 120_000);
afterAll(() => docker?.close(), 60_000);

const claude = getAgentDef("claude") as RuntimeAgentDef;
const INIT = '{"type":"system","subtype":"init","session_id":"s1"}';

async function poll(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function dockerCli(...args: string[]): void {
  // Its stderr is kept: a refused `docker pause` then says why (the error carries it), not only its exit status.
  // runc's freezer can miss a process mid-fork ("unable to freeze"): such a pause is tried again, twice at most.
  for (let attempt = 1; ; attempt++) {
    try {
      execFileSync("docker", args, { env: { ...process.env, ...docker.env }, stdio: ["ignore", "ignore", "pipe"], timeout: 60_000 });
      return;
    } catch (error) {
      if (attempt >= 3 || !String((error as { stderr?: unknown }).stderr).includes("unable to freeze")) throw error;
    }
  }
}

describe("a docker:// run's clean-up in a paused container", () => {
  test("cancel answers at once, the clean-up is pending while the container is paused, and done once it is unpaused", async () => {
    await using h = await runHarness({
      defs: [claude],
      shims: { claude: undefined },
      steps: [{ readLine: true }, { orphan: true }, { ignoreTerm: true }, { out: INIT }, { hang: true }],
      timeouts: { cancelGraceMs: 300 },
      projectPath: (dir) => `docker://${docker.container}${dir}`,
      remote: { env: { ...process.env, ...docker.env } },
      remoteCleanup: { sweepWaitMs: 1000, attemptTimeoutMs: 10_000, retryEveryMs: 500 },
      env: { OD_DETECTION_DEADLINE_MS: "0" },
    });
    h.store.appConfig.update({ agentCliEnv: { claude: fakeCliEnvThere(h) } });
    const { runId } = await h.service.create({ projectId: h.projectId, agentId: "claude", message: "slow" });
    let paused = false;
    try {
      await poll(() => h.ledger().some((l) => l.event === "orphan"));
      await poll(() => processesWithRunCookie(runId).length >= 2);
      dockerCli("pause", docker.container);
      paused = true;
      // Read once the container is frozen: a process that exited just before the pause took effect is not counted.
      const inContainer = processesWithRunCookie(runId);
      expect(inContainer.length).toBeGreaterThanOrEqual(2);

      const asked = Date.now();
      expect(await h.service.cancel(runId)).toBe(true);
      expect(Date.now() - asked).toBeLessThan(2500);
      const events: RunEvent[] = [];
      for await (const event of h.service.events(runId)) events.push(event);
      expect(endOf(events)).toMatchObject({ status: "canceled" });
      const pending = events.find((e) => e.type === "diagnostic" && e.kind === "cleanup_pending");
      expect(pending).toMatchObject({ message: expect.stringContaining(`container ${docker.container}`) });
      expect(h.service.get(runId)!.cleanup).toMatchObject({ status: "pending" });
      // Retried while paused (docker refuses each exec at once), and still pending.
      await poll(() => (h.service.get(runId)!.cleanup?.attempts ?? 0) >= 2, 15_000);
      expect(h.service.get(runId)!.cleanup).toMatchObject({ status: "pending", lastError: expect.stringContaining("paused") });
      expect(inContainer.filter(isLivePid)).toEqual(inContainer);

      dockerCli("unpause", docker.container);
      paused = false;
      await poll(() => inContainer.filter(isLivePid).length === 0, 30_000);
      expect(processesWithRunCookie(runId)).toEqual([]);
      await poll(() => h.service.get(runId)!.cleanup?.status === "done", 10_000);
    } finally {
      if (paused) dockerCli("unpause", docker.container);
      killSurvivors(h.ledgerPath, [runId]);
    }
  }, 180_000);

  test("a container paused under a running agent ends the run as a lost connection within the liveness bound (issue #36 item 7)", async () => {
    await using h = await runHarness({
      defs: [claude],
      shims: { claude: undefined },
      steps: [{ readLine: true }, { out: INIT }, { hang: true }],
      timeouts: { cancelGraceMs: 300 },
      projectPath: (dir) => `docker://${docker.container}${dir}`,
      remote: { env: { ...process.env, ...docker.env }, livenessMs: 2000 },
      remoteCleanup: { sweepWaitMs: 1000, attemptTimeoutMs: 10_000, retryEveryMs: 500 },
      env: { OD_DETECTION_DEADLINE_MS: "0" },
    });
    h.store.appConfig.update({ agentCliEnv: { claude: fakeCliEnvThere(h) } });
    const { runId } = await h.service.create({ projectId: h.projectId, agentId: "claude", message: "slow" });
    let paused = false;
    try {
      await poll(() => processesWithRunCookie(runId).length >= 1);
      dockerCli("pause", docker.container);
      paused = true;
      const pausedAt = Date.now();
      const events: RunEvent[] = [];
      for await (const event of h.service.events(runId)) events.push(event);
      // Without the watch, docker exec waits on a paused container forever: the run would never end.
      expect(Date.now() - pausedAt).toBeLessThan(15_000);
      expect(endOf(events)).toMatchObject({ status: "failed", failureCategory: "upstream", failureDetail: "remote_connection_lost" });
      expect(h.service.get(runId)).toMatchObject({ errorCode: "REMOTE_CONNECTION_LOST" });
      expect(endOf(events).reason).toContain(`container ${docker.container}`);
      expect(endOf(events).reason).toContain("paused");
      dockerCli("unpause", docker.container);
      paused = false;
      await poll(() => processesWithRunCookie(runId).length === 0, 30_000);
    } finally {
      if (paused) dockerCli("unpause", docker.container);
      killSurvivors(h.ledgerPath, [runId]);
    }
  }, 120_000);
});
