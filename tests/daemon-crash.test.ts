// Issue #17: after `kill -9` of the daemon, the next daemon on the same data dir ends the interrupted run and sweeps
// its agent processes (TERM-ignoring ones included), even while the dead daemon is still an unreaped zombie; and no
// event id a client saw before the crash is ever reused, so a client resuming with Last-Event-ID always gets `end`.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { openBunSqlite } from "../server/platform/sqlite-bun.ts";
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

/**
 * A copilot streaming text deltas at about 2000 events a second (bursts of 20, 10 ms apart) for half a minute, then
 * hanging: fast enough that the newest events a client sees are still waiting for their batch to be written.
 */
const FAST_AGENT = [
  { readAll: true },
  ...Array.from({ length: 3000 }, (_, burst) => [{ repeat: 20, out: `{"type":"assistant.message_delta","data":{"deltaContent":"b${burst}w{{i}} "}}` }, { sleep: 10 }]).flat(),
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
      // The orphan is started just before the agent's first event, through `setsid`, which forks and execs on its
      // way to `sleep`: for a moment after that event neither of its pids may be visible yet. Both are up before the
      // daemon dies.
      await until(() => survivors(world.ledgerPath, [runId!]).length >= 2, 10_000, "the agent and its orphan to be up");
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

  test("ids sent before the crash are never reused: resuming with Last-Event-ID after the restart gets `end`", async () => {
    using world = fakeAgentWorld(FAST_AGENT, { OD_CHAT_RUN_CANCEL_GRACE_MS: "500" });
    const daemons: Awaited<ReturnType<typeof world.start>>[] = [];
    const runIds: string[] = [];
    try {
      // The hard case is a client that saw ids sqlite never got. A kill lands right after a write now and then (or,
      // on a loaded machine, the client lags behind the writes), so such a trial is repeated — the next daemon
      // recovers the run of the one before — and the last one is checked all the same.
      let trial: { runId: string; seen: Map<number, unknown>; lastSeen: number; hard: boolean } | undefined;
      for (let attempt = 0; attempt < 3 && !trial?.hard; attempt++) {
        const od = await world.start();
        daemons.push(od);
        const runId = await world.startRun(od, `trial ${attempt}`);
        runIds.push(runId);
        // Read live and kill the daemon the moment 2000 events have arrived; frames already on the way still count.
        const seen = new Map<number, unknown>();
        await readFrames(await world.api(od, `/api/runs/${runId}/events`), (id, data) => {
          seen.set(id, data);
          if (seen.size === 2000) od.child.kill("SIGKILL");
        });
        await od.child.exited;
        expect(seen.size).toBeGreaterThanOrEqual(2000);
        const lastSeen = Math.max(...seen.keys());
        trial = { runId, seen, lastSeen, hard: persistedMaxId(world.dataDir, runId) < lastSeen };
      }
      const { runId, seen, lastSeen } = trial!;

      const od = await world.start();
      daemons.push(od);
      const resumed = await readSse(await world.api(od, `/api/runs/${runId}/events`, { headers: { "last-event-id": String(lastSeen) } }));
      expect(resumed.at(-1)).toMatchObject({ event: "end", data: { status: "failed", failureDetail: "daemon_restart" } });
      for (const frame of resumed) expect(Number(frame.id)).toBeGreaterThan(lastSeen);
      // Every id the new daemon serves that the client had seen carries the content the client saw.
      const replay = await readSse(await world.api(od, `/api/runs/${runId}/events`));
      for (const frame of replay) if (seen.has(Number(frame.id))) expect(frame.data).toEqual(seen.get(Number(frame.id)));
      expect(seen.has(Number(replay.at(-1)!.id))).toBe(false);
      await until(() => survivors(world.ledgerPath, runIds).length === 0, 30_000, "the runs' processes to be swept");
    } finally {
      for (const od of daemons) await od.stop();
      killSurvivors(world.ledgerPath, runIds);
    }
  }, TIMEOUT);
});

/** Every id-carrying SSE frame of `response`, as it arrives, until the stream ends or breaks (the daemon died). */
async function readFrames(response: Response, onFrame: (id: number, data: unknown) => void): Promise<void> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let boundary: number;
      while ((boundary = buffer.indexOf("\n\n")) !== -1) {
        const block = buffer.slice(0, boundary);
        buffer = buffer.slice(boundary + 2);
        const id = /^id: (\d+)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (id !== undefined && data !== undefined) onFrame(Number(id), JSON.parse(data));
      }
    }
  } catch {
    // The connection broke with the daemon: everything read so far is what the client saw.
  }
}

function persistedMaxId(dataDir: string, runId: string): number {
  const db = openBunSqlite(join(dataDir, "od.db"));
  try {
    return Number(db.prepare("SELECT COALESCE(MAX(last_id), 0) AS id FROM run_event_batches WHERE run_id = ?").get(runId)?.id ?? 0);
  } finally {
    db.close();
  }
}
