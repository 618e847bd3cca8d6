// Issue #35: a cancel against a location that does not answer answers at once, while a location that answers, even
// slowly, still has its sweep waited for (the run's change snapshot needs its processes gone). "Answers" is whether
// the sweep starts there, judged against how long that location's sessions took to start lately.
import { afterEach, expect, test } from "bun:test";
import { join } from "node:path";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import type { SweepResult } from "../../server/machines/remote-launch.ts";
import { forgetSessionStarts, MAX_REACH_WAIT_MS, MIN_REACH_WAIT_MS, noteSessionStart, reachWaitMs } from "../../server/machines/session-starts.ts";
import { RemoteCleanups } from "../../server/machines/remote-cleanups.ts";
import { Store } from "../../server/store/store.ts";
import { tempDir } from "../support/temp.ts";

const HOST = { kind: "ssh" as const, host: "box", path: "/srv/app" };
const GRACE_MS = 1500;

afterEach(() => forgetSessionStarts());

/** A sweep there that starts after `startsAfterMs` (never when undefined) and ends `endsAfterMs` after its call. */
function timedSweep(startsAfterMs: number | undefined, endsAfterMs: number, result: SweepResult) {
  return async (_location: unknown, _runId: string, _grace: number, _context: unknown, _timeout?: number, onStarted?: () => void): Promise<SweepResult> => {
    if (startsAfterMs !== undefined) setTimeout(() => onStarted?.(), startsAfterMs);
    await Bun.sleep(endsAfterMs);
    return result;
  };
}

function cleanupsWith(sweep: ReturnType<typeof timedSweep>, dir: string) {
  const store = Store.open(join(dir, "od.db"), openBunSqlite);
  const projectId = store.projects.create("p", "ssh://box/srv/app").id;
  const conversationId = store.conversations.create(projectId, "c").id;
  store.runs.create({ id: "run_a", projectId, conversationId, agentId: "claude", model: null, reasoning: null });
  const cleanups = new RemoteCleanups({ repo: store.pendingSweeps, context: { env: {} }, graceMs: GRACE_MS, sweep, timings: { retryEveryMs: 3_600_000 } });
  return { store, cleanups, [Symbol.dispose]: () => (cleanups.dispose(), store.close()) };
}

test("the wait for a session to start follows the location's recent starts: a few times the typical one, within bounds", () => {
  expect(reachWaitMs(HOST)).toBe(MAX_REACH_WAIT_MS); // nothing known yet: the longest
  noteSessionStart(HOST, 9000); // the first command logs in: slow, once
  noteSessionStart(HOST, 40);
  noteSessionStart({ ...HOST, path: "/elsewhere" }, 90); // the same machine, another folder
  expect(reachWaitMs(HOST)).toBe(MIN_REACH_WAIT_MS);
  noteSessionStart(HOST, 700);
  noteSessionStart(HOST, 700);
  expect(reachWaitMs(HOST)).toBe(2800);
  for (let i = 0; i < 3; i++) noteSessionStart(HOST, 3000); // a loaded machine
  expect(reachWaitMs(HOST)).toBe(MAX_REACH_WAIT_MS);
  // Only the last eight count: a slow spell passes.
  for (let i = 0; i < 8; i++) noteSessionStart(HOST, 50);
  expect(reachWaitMs(HOST)).toBe(MIN_REACH_WAIT_MS);
  expect(reachWaitMs({ kind: "docker", container: "other", path: "/" })).toBe(MAX_REACH_WAIT_MS);
});

test("a location that answers quickly as a rule and does not answer now: the run's end (a cancel) is answered within about a second, the clean-up pending", async () => {
  using dir = tempDir("od-cleanup-waits-");
  for (let i = 0; i < 3; i++) noteSessionStart(HOST, 60);
  using h = cleanupsWith(timedSweep(undefined, 60_000, { kind: "unreached", why: "no answer" }), dir.path);
  const asked = performance.now();
  const sweep = await h.cleanups.sweepAfterRun("run_a", HOST);
  const took = performance.now() - asked;
  expect(sweep).toMatchObject({ kind: "pending", why: "no answer within 1 s" });
  // Before, it waited the grace and 5 s more (6.5 s here) whatever the location's sessions took.
  expect(took).toBeGreaterThanOrEqual(MIN_REACH_WAIT_MS - 5);
  expect(took).toBeLessThan(MIN_REACH_WAIT_MS + 700);
  expect(h.store.runs.get("run_a")!.cleanup).toMatchObject({ status: "pending" });
});

test("a sweep that starts late but within the wait, then takes the grace, is waited for: swept, nothing pending", async () => {
  using dir = tempDir("od-cleanup-waits-");
  for (let i = 0; i < 3; i++) noteSessionStart(HOST, 300); // waits 1.2 s for a start
  using h = cleanupsWith(timedSweep(900, 900 + GRACE_MS, { kind: "swept", pids: [41, 42] }), dir.path);
  expect(await h.cleanups.sweepAfterRun("run_a", HOST)).toEqual({ kind: "swept", pids: [41, 42] });
  expect(h.store.runs.get("run_a")).not.toHaveProperty("cleanup");
});

test("a sweep that ends before it prints (the location refused it) is judged by its result at once", async () => {
  using dir = tempDir("od-cleanup-waits-");
  using h = cleanupsWith(timedSweep(undefined, 50, { kind: "unreached", why: "Connection refused" }), dir.path);
  const asked = performance.now();
  expect(await h.cleanups.sweepAfterRun("run_a", HOST)).toMatchObject({ kind: "pending", why: "Connection refused" });
  expect(performance.now() - asked).toBeLessThan(1000);
});
