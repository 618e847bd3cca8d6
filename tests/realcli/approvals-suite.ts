/**
 * Issue #37 against real CLIs (the pinned ones, already installed: this file never installs) and the fake model
 * server, through a real `od serve`: in ask mode the model's write becomes an approval request before any file exists;
 * allow_once writes it, deny leaves no file and the run still ends; a request nobody answers is denied at the timeout,
 * and a cancel denies it; read-only writes nothing and asks nothing.
 * Claude Code and Qwen Code over Claude's control protocol, codex over app-server, claude-code-acp, kilo over ACP with
 * its permission overlay, codex-acp switched to its asking session mode, and pi through od's permission extension.
 * Each CLI's describe is called from its own file, approvals/<cli>.test.ts: alone the suite took 5½ minutes, the
 * longest file of the real-CLI suite by far, and as files the CLIs can be dealt into parts that run side by side.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { PendingApproval } from "../../server/contracts/events.ts";
import type { RunSummary } from "../../server/contracts/runs.ts";
import type { RunningDaemon } from "../support/daemon-process.ts";
import { callOd, createProject, startOdDaemon } from "./od-http.ts";
import { createOdSandbox, type OdSandbox } from "./od-sandbox.ts";
import { installIsCurrent } from "./setup.ts";
import type { RealCliId } from "./versions.ts";

/** The CLIs whose approvals od forwards: every pinned one that can act (opencode and copilot run in bypass only). */
const ASKING_CLIS: RealCliId[] = ["claude", "codex", "claude-code-acp", "kilo", "qwen", "pi", "codex-acp", "copilot"];
/** CLIs that take denied tools out of what the model is offered, rather than refusing a call. */
const TOOLLESS_WHEN_READ_ONLY: RealCliId[] = ["kilo", "opencode"];
/** CLIs that cannot ask, but refuse changes by themselves in a read-only run (`readOnlyByItself`). */
const READ_ONLY_CLIS: RealCliId[] = ["opencode"];
const WAIT_MS = 120_000;

/** Every CLI this suite runs: one test file each (approvals/<cli>.test.ts), so the queue can spread them over parts. */
export const APPROVAL_CLIS: RealCliId[] = [...ASKING_CLIS, ...READ_ONLY_CLIS];

/** The suite for one CLI: its own sandbox, fake model server and `od serve`. */
export function describeApprovals(cli: RealCliId): void {
describe(`real ${cli} in ask and read-only runs`, () => {
  const asks = ASKING_CLIS.includes(cli);
  let sandbox: OdSandbox;
  let daemon: RunningDaemon;
  let projectId: string;

const api = (method: string, path: string, body?: unknown) => callOd(daemon, method, path, body);

async function until<T>(what: string, read: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${daemon.stderr().slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function startRun(file: string, permissionMode: "ask" | "read-only"): Promise<string> {
  const message = `[[od:write path=${file} content="hello from od"]]`;
  const created = await api("POST", "/api/runs", { projectId, agentId: sandbox.agentId, message, permissionMode });
  expect(created.status).toBe(202);
  return created.json.runId as string;
}

const run = (runId: string) => api("GET", `/api/runs/${runId}`).then((r) => r.json as RunSummary);
const pendingOf = (runId: string) => until("an approval request", async () => (await run(runId)).pendingApprovals?.[0] as PendingApproval | undefined);
const ended = (runId: string) => until("the run's end", async () => {
  const summary = await run(runId);
  return summary.endedAt !== null ? summary : undefined;
});

async function agentEventTypes(runId: string): Promise<string[]> {
  const response = await fetch(`${daemon.origin}/api/runs/${runId}/events`, { headers: { authorization: `Bearer ${daemon.token}` } });
  const text = await response.text();
  return [...text.matchAll(/"type":"agent","event":\{"type":"([a-z_]+)"/g)].map((m) => m[1]!);
}

beforeAll(async () => {
  if (!installIsCurrent()) throw new Error("the pinned real CLIs are not installed in tests/realcli/.cache (run the real-CLI suite once)");
  sandbox = await createOdSandbox(cli);
  daemon = await startOdDaemon(sandbox);
  projectId = await createProject(daemon, sandbox);
  // A loaded machine can take longer than one detection pass to probe an adapter: wait until it is available.
  await until(`${sandbox.agentId} to be detected`, async () => {
    const { json } = await api("GET", "/api/agents");
    const agent = (json.agents as { id: string; state: string }[]).find((candidate) => candidate.id === sandbox.agentId);
    return agent?.state === "available" ? agent : undefined;
  });
}, WAIT_MS);

afterAll(async () => {
  await daemon?.stop();
  await sandbox?.dispose();
});

  if (asks) test("ask: the Write waits for a person with no file yet; allow_once writes it", async () => {
    const runId = await startRun("allowed.txt", "ask");
    const pending = await pendingOf(runId);
    expect(pending.kind).toBe("edit");
    expect(pending.title).toContain("allowed.txt");
    expect(existsSync(join(sandbox.project, "allowed.txt"))).toBe(false);
    expect((await api("POST", `/api/runs/${runId}/approvals/${pending.approvalId}`, { decision: "allow_once" })).status).toBe(200);
    const summary = await ended(runId);
    expect(summary.status).toBe("succeeded");
    expect(existsSync(join(sandbox.project, "allowed.txt"))).toBe(true);
  }, WAIT_MS);

  if (asks) test("ask: deny leaves no file and the run still ends", async () => {
    const runId = await startRun("denied.txt", "ask");
    const pending = await pendingOf(runId);
    expect((await api("POST", `/api/runs/${runId}/approvals/${pending.approvalId}`, { decision: "deny", message: "not now" })).status).toBe(200);
    const summary = await ended(runId);
    expect(summary.status).toBe("succeeded");
    expect(existsSync(join(sandbox.project, "denied.txt"))).toBe(false);
  }, WAIT_MS);

  /** The run's answer text, as its text deltas carry it. */
  async function runText(runId: string): Promise<string> {
    const response = await fetch(`${daemon.origin}/api/runs/${runId}/events`, { headers: { authorization: `Bearer ${daemon.token}` } });
    const text = await response.text();
    return [...text.matchAll(/"type":"text_delta","delta":"((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`) as string).join("");
  }

  /** The decisions of the run's approval_resolved events, with who made them. */
  async function resolutions(runId: string): Promise<string[]> {
    const response = await fetch(`${daemon.origin}/api/runs/${runId}/events`, { headers: { authorization: `Bearer ${daemon.token}` } });
    const text = await response.text();
    return [...text.matchAll(/"type":"approval_resolved"[^}]*?"decision":"([a-z_]+)"[^}]*?"by":"([a-z]+)"/g)].map((m) => `${m[1]} by ${m[2]}`);
  }

  if (asks) test("ask: a request nobody answers is denied at approvalTimeoutMs; no file, and the run ends", async () => {
    expect((await api("PUT", "/api/app-config", { approvalTimeoutMs: 1000 })).status).toBe(200);
    try {
      const runId = await startRun("unanswered.txt", "ask");
      await pendingOf(runId);
      const summary = await ended(runId);
      expect(summary.pendingApprovals ?? []).toEqual([]);
      expect(existsSync(join(sandbox.project, "unanswered.txt"))).toBe(false);
      expect(await resolutions(runId)).toEqual(["deny by timeout"]);
    } finally {
      await api("PUT", "/api/app-config", { approvalTimeoutMs: null });
    }
  }, WAIT_MS);

  if (asks) test("ask: cancel while a request waits denies it and ends the run canceled; no file", async () => {
    const runId = await startRun("canceled.txt", "ask");
    await pendingOf(runId);
    expect((await api("POST", `/api/runs/${runId}/cancel`, {})).status).toBe(200);
    const summary = await ended(runId);
    expect(summary.status).toBe("canceled");
    expect(existsSync(join(sandbox.project, "canceled.txt"))).toBe(false);
    expect(await resolutions(runId)).toEqual(["deny by cancel"]);
  }, WAIT_MS);

  test("read-only: nothing is written and nobody is asked", async () => {
    const runId = await startRun("readonly.txt", "read-only");
    const summary = await ended(runId);
    expect(summary.status).toBe("succeeded");
    expect(existsSync(join(sandbox.project, "readonly.txt"))).toBe(false);
    const types = await agentEventTypes(runId);
    // The model was given a write tool that is refused, or (kilo: denied tools are not offered) none at all.
    if (TOOLLESS_WHEN_READ_ONLY.includes(cli)) expect(await runText(runId)).toContain("no suitable tool offered");
    else expect(types).toContain("tool_use");
    expect(types.filter((type) => type.startsWith("approval_"))).toEqual([]);
  }, WAIT_MS);
});
}
