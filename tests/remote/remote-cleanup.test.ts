// Issue #35: remote clean-up that failed is not forgotten. The host stops answering (its sshd frozen with SIGSTOP,
// as a suspended or cut-off machine: connections hang, the run's processes there keep running) at a cancel or at the
// end of a run. The cancel answers at once, the run says its clean-up is pending, and once the host answers again the
// sweep is retried — on the next contact with the host, periodically, and on the next start of od — until nothing
// carrying the run's cookie is left there; the run's summary then says the clean-up finished.
// The "remote" side is this machine's own sshd, so its processes are visible from here.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { RunEvent, RunSummary } from "../../server/contracts/runs.ts";
import { runRoutes } from "../../server/http/runs.ts";
import { reachLocation, runRemoteScript } from "../../server/machines/remote-exec.ts";
import { RunService } from "../../server/runs/run-service.ts";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";
import type { AgentInfo } from "../../server/contracts/agents.ts";
import { endOf, fakeCliEnvThere, processesWithRunCookie, runHarness } from "../support/fake-agents.ts";
import { startTestSshd, SSH_TEST_HOST, type TestSshd } from "../support/sshd.ts";
import { startTestApp } from "../support/app.ts";
import { isLivePid, killSurvivors } from "../support/survivors.ts";

const claude = getAgentDef("claude") as RuntimeAgentDef;
const INIT = '{"type":"system","subtype":"init","session_id":"s1"}';
/** An agent that ignores SIGTERM, with a grandchild in its own session that ignores it too: only a sweep ends them. */
const STUBBORN = [{ readLine: true }, { orphan: true }, { ignoreTerm: true }, { out: INIT }, { hang: true }];
/** Long enough that a retry in a test comes from what the test does, never from the timer. */
const NEVER = 3_600_000;
/**
 * How long one sweep waits for the host here: a session on a shared connection took ~3 s on a machine with a load of
 * 15–40 on two cores (and a first login ~20 s), so a shorter wait would give up on a host that answers.
 */
const ATTEMPT_MS = 10_000;
/**
 * How long a run's end waits for its sweep to start there, and past the grace for one that started: short, so a
 * cancel's answer shows it does not wait longer. (By default the first follows the host's recent session starts,
 * about a second on a quiet machine: tests/runs/remote-cleanup-waits.test.ts.)
 */
const ANSWER_WAIT_MS = 1000;

async function poll(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not met within ${timeoutMs} ms: ${check.toString()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function remoteContext(sshd: TestSshd) {
  return { env: { ...process.env, ...sshd.env }, controlDir: sshd.controlDir };
}

const HOST = { kind: "ssh" as const, host: SSH_TEST_HOST, path: "/" };

/**
 * Opens the host's shared connection, however long a loaded machine takes to log in (tens of seconds were seen):
 * the run's own commands then only open sessions on it, and its timings are the ones under test.
 */
async function connect(sshd: TestSshd): Promise<void> {
  expect(await runRemoteScript(HOST, "true", [], remoteContext(sshd), { timeoutMs: 120_000 })).toMatchObject({ kind: "exited", code: 0 });
}

async function remoteHarness(sshd: TestSshd, cleanup: { sweepWaitMs: number; attemptTimeoutMs: number; retryEveryMs: number }) {
  const timings = { reachWaitMs: ANSWER_WAIT_MS, ...cleanup };
  const h = await runHarness({
    defs: [claude],
    shims: { claude: undefined },
    steps: STUBBORN,
    timeouts: { cancelGraceMs: 300 },
    projectPath: (dir) => `ssh://${SSH_TEST_HOST}${dir}`,
    remote: remoteContext(sshd),
    remoteCleanup: timings,
    // A loaded machine probes slowly: the run waits for what detection there finds, however long it takes.
    env: { OD_DETECTION_DEADLINE_MS: "0" },
  });
  h.store.appConfig.update({ agentCliEnv: { claude: fakeCliEnvThere(h) } });
  return h;
}

async function collect(service: RunService, runId: string): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of service.events(runId)) events.push(event);
  return events;
}

/** Starts a stubborn run and waits until the agent and its grandchild run on the remote side. */
async function startStubbornRun(sshd: TestSshd, h: Awaited<ReturnType<typeof remoteHarness>>) {
  await connect(sshd);
  const { runId } = await h.service.create({ projectId: h.projectId, agentId: "claude", message: "slow" });
  await poll(() => h.ledger().some((l) => l.event === "orphan"));
  await poll(() => processesWithRunCookie(runId).length >= 2);
  return { runId, remotePids: processesWithRunCookie(runId) };
}

function pendingDiagnostic(events: RunEvent[]) {
  return events.find((e) => e.type === "diagnostic" && e.kind === "cleanup_pending");
}

// Each test freezes its own sshd and then mostly waits out sweep attempts against it: they run at the same time.
describe.concurrent("remote clean-up that could not reach the host", () => {
  test("a cancel while the host does not answer returns at once; the clean-up is pending, and retried periodically until it is done", async () => {
    await using sshd = await startTestSshd();
    await using h = await remoteHarness(sshd, { sweepWaitMs: ANSWER_WAIT_MS, attemptTimeoutMs: ATTEMPT_MS, retryEveryMs: 500 });
    await using app = await startTestApp({ modules: [runRoutes(h.service)] });
    const summary = async () => (await (await app.call(`/api/runs/${runId}`)).json()) as RunSummary;
    const { runId, remotePids } = await startStubbornRun(sshd, h);
    const thaw = sshd.freeze();
    try {
      const asked = Date.now();
      const canceled = await app.json("POST", `/api/runs/${runId}/cancel`, {});
      expect(Date.now() - asked).toBeLessThan(2500);
      expect(canceled.status).toBe(200);
      const answer = (await canceled.json()) as { run: RunSummary };
      expect(answer.run).toMatchObject({ status: "canceled", cleanup: { status: "pending", attempts: expect.any(Number) } });
      expect(answer.run.cleanup!.since).toBeGreaterThanOrEqual(asked);
      const events = await collect(h.service, runId);
      expect(endOf(events)).toMatchObject({ status: "canceled" });
      // Said before the end, which is always the run's last event.
      const pending = pendingDiagnostic(events);
      expect(pending).toMatchObject({ type: "diagnostic", kind: "cleanup_pending", message: expect.stringContaining(SSH_TEST_HOST) });
      expect(events.indexOf(pending!)).toBeLessThan(events.length - 1);
      // Nothing reached the host: what the run started there still runs.
      expect(remotePids.filter(isLivePid)).toEqual(remotePids);
      // The first try gives up; the timer keeps trying while the host does not answer.
      await poll(() => (h.service.get(runId)!.cleanup?.attempts ?? 0) >= 2, 4 * ATTEMPT_MS);
      expect(await summary()).toMatchObject({ cleanup: { status: "pending", lastError: expect.stringContaining("no answer") } });
      thaw();
      await poll(() => remotePids.filter(isLivePid).length === 0, 90_000);
      expect(processesWithRunCookie(runId)).toEqual([]);
      await poll(() => h.service.get(runId)!.cleanup?.status === "done", 30_000);
      const done = (await summary()).cleanup!;
      expect(done).toMatchObject({ status: "done" });
      expect(done.finishedAt).toBeGreaterThanOrEqual(done.since);
    } finally {
      thaw();
      killSurvivors(h.ledgerPath, [runId]);
    }
  }, 300_000);

  test("a run that ends while the host does not answer says so; the next contact with the host sweeps it", async () => {
    await using sshd = await startTestSshd();
    await using h = await remoteHarness(sshd, { sweepWaitMs: ANSWER_WAIT_MS, attemptTimeoutMs: ATTEMPT_MS, retryEveryMs: NEVER });
    const { runId, remotePids } = await startStubbornRun(sshd, h);
    const thaw = sshd.freeze();
    try {
      // The local ssh client dies (the network went away): the run ends, and its sweep cannot reach the host.
      process.kill(h.service.get(runId)!.pid!, "SIGKILL");
      const events = await collect(h.service, runId);
      expect(endOf(events)).toMatchObject({ status: "failed", failureDetail: "remote_connection_lost" });
      expect(pendingDiagnostic(events)).toBeDefined();
      await poll(() => (h.service.get(runId)!.cleanup?.attempts ?? 0) >= 1, 3 * ATTEMPT_MS);
      thaw();
      // The host answers again, but nothing has asked it anything new: the clean-up stays pending. (What is left there
      // may still end now: sshd ends the dead connection's session, and under load the sweep that gave up can still
      // reach the host once it thaws, through the connection it was queued on. Only the next contact marks it done.)
      await Bun.sleep(1000);
      expect(h.service.get(runId)!.cleanup).toMatchObject({ status: "pending" });
      // Any command that reaches the host (a listing, a probe, a run's snapshot) retries its pending sweeps.
      expect(await reachLocation(HOST, remoteContext(sshd))).toEqual({ reached: true });
      await poll(() => remotePids.filter(isLivePid).length === 0, 90_000);
      await poll(() => h.service.get(runId)!.cleanup?.status === "done", 30_000);
      // The run's own events ended before that: the conversation's next run tells it.
      h.script([{ readLine: true }, { outFile: join(import.meta.dir, "..", "fixtures", "claude", "text.jsonl") }]);
      const next = await h.run({ agentId: "claude", message: "again", conversationId: h.service.get(runId)!.conversationId });
      expect(endOf(next.events)).toMatchObject({ status: "succeeded" });
      const notice = next.events.find((e) => e.type === "diagnostic" && e.kind === "earlier_cleanup");
      expect(notice).toMatchObject({ message: expect.stringContaining("finished"), detail: { runId, status: "done" } });
    } finally {
      thaw();
      killSurvivors(h.ledgerPath, [runId]);
    }
  }, 300_000);

  test("a clean-up still pending when od stops is retried on its next start", async () => {
    await using sshd = await startTestSshd();
    await using h = await remoteHarness(sshd, { sweepWaitMs: ANSWER_WAIT_MS, attemptTimeoutMs: ATTEMPT_MS, retryEveryMs: NEVER });
    const { runId, remotePids } = await startStubbornRun(sshd, h);
    const thaw = sshd.freeze();
    try {
      expect(await h.service.cancel(runId)).toBe(true);
      await poll(() => (h.service.get(runId)!.cleanup?.attempts ?? 0) >= 1, 3 * ATTEMPT_MS);
      await h.service.shutdown();
      thaw();
      await Bun.sleep(1000);
      expect(remotePids.filter(isLivePid)).toEqual(remotePids);
      // The next od over the same data: it finds the pending clean-up and finishes it.
      const infos = [{ id: "claude", state: "available", available: true, diagnostics: [] }] as unknown as AgentInfo[];
      const next = new RunService({
        store: h.store,
        defs: [claude],
        agents: { list: async () => infos, capabilities: () => ({}), liveModels: () => undefined },
        env: h.env,
        timeouts: { cancelGraceMs: 300 },
        remote: remoteContext(sshd),
        remoteCleanup: { sweepWaitMs: ANSWER_WAIT_MS, attemptTimeoutMs: ATTEMPT_MS, retryEveryMs: NEVER },
      });
      try {
        next.resumeRemoteCleanups();
        await poll(() => remotePids.filter(isLivePid).length === 0, 90_000);
        await poll(() => next.get(runId)!.cleanup?.status === "done", 30_000);
      } finally {
        await next.shutdown();
      }
    } finally {
      thaw();
      killSurvivors(h.ledgerPath, [runId]);
    }
  }, 300_000);
});
