// Issue #21: runs of a project on another machine go through ssh and are the same runs: a write that failed there, a
// connection dropped mid-run from either side, two runs on one connection, a CLI or folder gone there, hostile names,
// and a client reconnecting to a run's events. What every machine does alike (a text run, a file write, cancel) is in
// every-machine.test.ts.
// The "remote" side is this machine's own sshd, so the fake CLIs and their ledger are visible from here.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { RunEvent } from "../../server/contracts/runs.ts";
import { runRoutes } from "../../server/http/runs.ts";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";
import { agentEvents, endOf, fakeCliEnvThere, processesWithRunCookie, runHarness, type FakeStep } from "../support/fake-agents.ts";
import { startTestSshd, SSH_TEST_HOST, type TestSshd } from "../support/sshd.ts";
import { startTestApp } from "../support/app.ts";
import { readSse } from "../support/sse.ts";
import { isLivePid, killSurvivors } from "../support/survivors.ts";
import { tempDir } from "../support/temp.ts";

// Each test starts and ends runs over a real ssh connection (a login, the run, its sweep there): seconds apiece on an
// idle machine, and several times that on a loaded 2-core one, where bun's 20 s default failed them at random.
setDefaultTimeout(60_000);

let sshd: TestSshd;
beforeAll(async () => {
  sshd = await startTestSshd();
});
afterAll(() => sshd?.close());

const claude = getAgentDef("claude") as RuntimeAgentDef;
const INIT = '{"type":"system","subtype":"init","session_id":"s1"}';

async function poll(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A harness whose project is `ssh://od-test-host/<folder>`; the fake CLI reaches the remote side via agentCliEnv. */
async function remoteHarness(steps: FakeStep[], options: { projectDir?: string; cancelGraceMs?: number } = {}) {
  const h = await runHarness({
    defs: [claude],
    shims: { claude: undefined },
    steps,
    timeouts: { cancelGraceMs: options.cancelGraceMs ?? 500 },
    projectPath: (dir) => `ssh://${SSH_TEST_HOST}${dir}`,
    remote: { env: { ...process.env, ...sshd.env }, controlDir: sshd.controlDir },
    ...(options.projectDir ? { projectDir: options.projectDir } : {}),
    // In the daemon's environment, so it must not reach the remote agent.
    env: { FAKE_ENV_LOCAL_ONLY: "local" },
  });
  // Nothing of the daemon's environment travels: PATH and the fake's script reach the remote side as the user's
  // agentCliEnv for the agent, exactly how a user sets PATH on a remote host.
  h.store.appConfig.update({
    agentCliEnv: { claude: fakeCliEnvThere(h, { OD_SECRET_PROBE: "it's $(id) `x`\nline" }) },
  });
  return h;
}

async function collect(h: Awaited<ReturnType<typeof remoteHarness>>, runId: string): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of h.service.events(runId)) events.push(event);
  return events;
}

describe("runs of an ssh:// project", () => {
  test("a write that failed there (ENOTDIR: its folder is a regular file) is not listed in the run's files", async () => {
    const write = (id: string, path: string) =>
      JSON.stringify({ type: "assistant", message: { id: `m-${id}`, role: "assistant", content: [{ type: "tool_use", id, name: "Write", input: { file_path: path, content: "x" } }] }, session_id: "s1" });
    await using h = await remoteHarness([
      { readLine: true },
      { writeFile: { path: "notes.txt", content: "a file, not a folder" } },
      { out: INIT },
      { out: write("t1", "notes.txt/inside.md") },
      { out: JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", is_error: true, content: "ENOTDIR: not a directory, open 'notes.txt/inside.md'" }] }, session_id: "s1" }) },
      { out: write("t2", "notes.txt") },
      { out: JSON.stringify({ type: "result", subtype: "success", is_error: false, result: "done", session_id: "s1" }) },
    ]);
    const { events, runId } = await h.run({ agentId: "claude", message: "write it" });
    expect(endOf(events)).toMatchObject({ status: "succeeded", files: ["notes.txt"] });
    expect(h.service.get(runId)?.files).toEqual(["notes.txt"]);
  });

  test("a connection dropped mid-run ends the run failed with a reason, and nothing is left running there", async () => {
    await using h = await remoteHarness([{ readLine: true }, { orphan: true }, { ignoreTerm: true }, { out: INIT }, { hang: true }], { cancelGraceMs: 300 });
    const created = await h.service.create({ projectId: h.projectId, agentId: "claude", message: "slow" });
    try {
      await poll(() => h.ledger().some((l) => l.event === "orphan"));
      await poll(() => processesWithRunCookie(created.runId).length >= 2);
      const remotePids = processesWithRunCookie(created.runId);
      // Kill the local ssh client, as a dropped network would end it.
      const client = h.service.get(created.runId)!.pid!;
      process.kill(client, "SIGKILL");
      const events = await collect(h, created.runId);
      expect(endOf(events)).toMatchObject({ status: "failed", failureDetail: "remote_connection_lost" });
      expect(endOf(events).reason).toContain(SSH_TEST_HOST);
      await poll(() => remotePids.filter(isLivePid).length === 0, 15_000);
      expect(processesWithRunCookie(created.runId)).toEqual([]);
    } finally {
      killSurvivors(h.ledgerPath, [created.runId]);
    }
  });

  test("the server side dropping the connection (its sshd session killed) ends the run failed, nothing left there", async () => {
    await using h = await remoteHarness([{ readLine: true }, { orphan: true }, { ignoreTerm: true }, { out: INIT }, { hang: true }], { cancelGraceMs: 300 });
    const created = await h.service.create({ projectId: h.projectId, agentId: "claude", message: "slow" });
    try {
      await poll(() => processesWithRunCookie(created.runId).length >= 2);
      const remotePids = processesWithRunCookie(created.runId);
      const agent = h.ledger().find((l) => l.event === "start") as { pid: number };
      // The agent's parent is the sshd process serving the connection: killing it is the host hanging up.
      const stat = readFileSync(`/proc/${agent.pid}/stat`, "latin1");
      const sshdSession = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      expect(readFileSync(`/proc/${sshdSession}/cmdline`, "latin1")).toStartWith("sshd");
      process.kill(sshdSession, "SIGKILL");
      const events = await collect(h, created.runId);
      expect(endOf(events)).toMatchObject({ status: "failed", failureDetail: "remote_connection_lost" });
      await poll(() => remotePids.filter(isLivePid).length === 0, 15_000);
    } finally {
      killSurvivors(h.ledgerPath, [created.runId]);
    }
  });

  test("runs on one host share one multiplexed connection: cancelling one leaves the other running", async () => {
    await using h = await remoteHarness([{ readLine: true }, { out: INIT }, { hang: true }], { cancelGraceMs: 300 });
    const first = await h.service.create({ projectId: h.projectId, agentId: "claude", message: "one" });
    const second = await h.service.create({ projectId: h.projectId, agentId: "claude", message: "two" });
    try {
      await poll(() => processesWithRunCookie(first.runId).length > 0 && processesWithRunCookie(second.runId).length > 0);
      await h.service.cancel(first.runId);
      expect(h.service.get(first.runId)!.status).toBe("canceled");
      expect(h.service.get(second.runId)!.status).toBe("running");
      expect(processesWithRunCookie(second.runId).length).toBeGreaterThan(0);
      await h.service.cancel(second.runId);
      // A cancel answers while the sweep there may still be going on (it is retried until it finishes).
      await poll(() => processesWithRunCookie(second.runId).length === 0, 30_000);
    } finally {
      killSurvivors(h.ledgerPath, [first.runId, second.runId]);
    }
  });

  test("a CLI gone from the host since it was detected there, or a folder gone there, ends the run with a typed reason naming the host", async () => {
    await using h = await remoteHarness([{ readLine: true }, { outFile: join(import.meta.dir, "..", "fixtures", "claude", "text.jsonl") }]);
    expect(endOf((await h.run({ agentId: "claude", message: "hi" })).events).status).toBe("succeeded");
    // Detection there found the CLI a moment ago (its result is kept): the run goes ahead and finds it missing.
    h.store.appConfig.update({ agentCliEnv: { claude: { PATH: "/usr/bin:/bin" } } });
    const missingCli = await h.run({ agentId: "claude", message: "hi" });
    expect(endOf(missingCli.events)).toMatchObject({ status: "failed", failureDetail: "cli_not_installed" });
    expect(endOf(missingCli.events).reason).toContain(SSH_TEST_HOST);
    rmSync(h.projectDir, { recursive: true });
    const missingFolder = await h.run({ agentId: "claude", message: "hi" });
    expect(endOf(missingFolder.events)).toMatchObject({ status: "failed", failureDetail: "remote_folder_missing" });
  });

  test("a client reconnecting with Last-Event-ID mid-run gets every missed event exactly once, as for a local run", async () => {
    const parts = Array.from({ length: 40 }, (_, i) => `part ${i} `);
    await using h = await remoteHarness([
      { readLine: true },
      { out: INIT },
      { streamDeltas: { parts, intervalMs: 25 } },
      { out: JSON.stringify({ type: "result", subtype: "success", is_error: false, result: "done", session_id: "s1" }) },
    ]);
    await using app = await startTestApp({ modules: [runRoutes(h.service)] });
    const { runId } = await (await app.json("POST", "/api/runs", { projectId: h.projectId, agentId: "claude", message: "stream" })).json();
    const first = await readSse(await app.call(`/api/runs/${runId}/events`), { limit: 8 });
    // The run is still streaming over ssh when the client comes back.
    expect(h.service.get(runId)!.status).toBe("running");
    const rest = await readSse(await app.call(`/api/runs/${runId}/events`, { headers: { "last-event-id": first.at(-1)!.id! } }));
    const ids = [...first, ...rest].map((frame) => Number(frame.id));
    expect(ids).toEqual(ids.map((_, i) => i + 1));
    expect(rest.at(-1)).toMatchObject({ event: "end", data: { status: "succeeded" } });
    const deltas = [...first, ...rest].flatMap((frame) => {
      const event = (frame.data as { event?: { type: string; delta?: string } }).event;
      return frame.event === "agent" && event?.type === "text_delta" ? [event.delta!] : [];
    });
    expect(deltas.join("")).toBe(parts.join(""));
    // After the end the stored log replays the same events.
    const replay = await readSse(await app.call(`/api/runs/${runId}/events?after=${first.length}`));
    expect(replay).toEqual(rest);
  });

  test("hostile prompt and folder names reach the agent as plain data", async () => {
    const hostile = "it's $(touch pwned) `touch pwned2`; rm -rf ~ \n* -rf ünï";
    using temp = tempDir("od-remote-hostile-");
    const folder = join(temp.path, "-rf it's $(touch pwned) `x`; *");
    await using h = await remoteHarness([{ readLine: true }, { echoInput: true }, { out: JSON.stringify({ type: "result", subtype: "success", is_error: false, result: "ok", session_id: "fake" }) }], { projectDir: folder });
    const { events } = await h.run({ agentId: "claude", message: hostile });
    expect(endOf(events).status).toBe("succeeded");
    expect(agentEvents(events).some((e) => e.type === "text_delta" && e.delta.includes("$(touch pwned)"))).toBe(true);
    expect((h.ledger().find((l) => l.event === "start") as { cwd: string }).cwd).toBe(folder);
    expect(readdirSync(folder)).toEqual([]);
  });
});
