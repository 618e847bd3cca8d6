/**
 * Issue #37, with the real Claude Code: a project's own MCP server whose command would leave a marker file. Before the
 * person approved the project's server list, a run leaves it out (and says so in a notice): no marker. Once the exact
 * list is approved, the next run gives it to Claude Code, which starts it: the marker appears.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RunSummary } from "../../server/contracts/runs.ts";
import type { RunningDaemon } from "../support/daemon-process.ts";
import { callOd, createProject, startOdDaemon } from "./od-http.ts";
import { createOdSandbox, type OdSandbox } from "./od-sandbox.ts";
import { installIsCurrent } from "./setup.ts";

const WAIT_MS = 120_000;
let sandbox: OdSandbox;
let daemon: RunningDaemon;
let projectId: string;
let marker: string;

const api = (method: string, path: string, body?: unknown) => callOd(daemon, method, path, body);

async function runToEnd(): Promise<{ summary: RunSummary; events: string }> {
  const created = await api("POST", "/api/runs", { projectId, agentId: sandbox.agentId, message: "Say hello. [[od:text]]" });
  expect(created.status).toBe(202);
  const runId = created.json.runId as string;
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const { json } = await api("GET", `/api/runs/${runId}`);
    if (json.endedAt !== null) {
      const events = await (await fetch(`${daemon.origin}/api/runs/${runId}/events`, { headers: { authorization: `Bearer ${daemon.token}` } })).text();
      return { summary: json as RunSummary, events };
    }
    if (Date.now() > deadline) throw new Error(`the run did not end\n${daemon.stderr().slice(-2000)}`);
    await Bun.sleep(100);
  }
}

beforeAll(async () => {
  if (!installIsCurrent()) throw new Error("the pinned real CLIs are not installed in tests/realcli/.cache (run the real-CLI suite once)");
  sandbox = await createOdSandbox("claude");
  marker = join(sandbox.root, "MCP-SERVER-STARTED");
  mkdirSync(join(sandbox.project, ".od"), { recursive: true });
  // A server a cloned repository could bring: its command runs as the user the moment the agent starts it.
  writeFileSync(join(sandbox.project, ".od", "mcp-config.json"), JSON.stringify({ servers: [{ name: "repo-tools", type: "stdio", command: "sh", args: ["-c", `touch '${marker}'`] }] }));
  daemon = await startOdDaemon(sandbox);
  projectId = await createProject(daemon, sandbox);
}, WAIT_MS);

afterAll(async () => {
  await daemon?.stop();
  await sandbox?.dispose();
});

test("before consent the project's server is left out (a notice says so) and never starts; after it, Claude Code starts it", async () => {
  const first = await runToEnd();
  expect(first.summary.status).toBe("succeeded");
  expect(first.events).toContain('"kind":"mcp_consent"');
  expect(existsSync(marker)).toBe(false);

  const consent = await api("GET", `/api/projects/${projectId}/mcp-consent`);
  expect(consent.json).toMatchObject({ status: "needed", servers: [expect.objectContaining({ name: "repo-tools", command: "sh" })] });
  expect((await api("POST", `/api/projects/${projectId}/mcp-consent`, { serversHash: consent.json.serversHash })).status).toBe(200);

  const second = await runToEnd();
  expect(second.summary.status).toBe("succeeded");
  expect(second.events).not.toContain('"kind":"mcp_consent"');
  expect(existsSync(marker)).toBe(true);
}, 2 * WAIT_MS);
