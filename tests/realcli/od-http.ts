/**
 * Drives a real CLI through a real od daemon process: `od serve --port 0`, then the HTTP API (create project,
 * POST /api/runs, cancel) and the run's SSE stream read frame by frame until its `end` event.
 */
import { join } from "node:path";
import { RunEvent } from "../../server/contracts/runs.ts";
import { startDaemonProcess, type RunningDaemon } from "../support/daemon-process.ts";
import { killCookie, processesWithCookie } from "./od-process.ts";
import type { OdSandbox } from "./od-sandbox.ts";
import type { ObservedRun } from "./od-scenarios.ts";

const MAIN = join(import.meta.dir, "..", "..", "server", "main.ts");

/** Start `od serve` on the sandbox's data dir and environment. */
export function startOdDaemon(sandbox: OdSandbox): Promise<RunningDaemon> {
  return startDaemonProcess([process.execPath, MAIN, "serve", "--port", "0", "--no-open", "--data-dir", sandbox.dataDir], {
    env: sandbox.env,
    cwd: sandbox.project,
    timeoutMs: 60_000,
  });
}

/** One authenticated call to the daemon: its status and its JSON body (null when empty). */
export async function callOd(daemon: RunningDaemon, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${daemon.origin}${path}`, {
    method,
    headers: { authorization: `Bearer ${daemon.token}`, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : null };
}

async function api(daemon: RunningDaemon, method: string, path: string, body?: unknown): Promise<unknown> {
  const { status, json } = await callOd(daemon, method, path, body);
  if (status >= 400) throw new Error(`${method} ${path} → ${status}: ${JSON.stringify(json).slice(0, 500)}`);
  return json;
}

/** POST /api/projects for the sandbox's project folder; returns the project id. */
export async function createProject(daemon: RunningDaemon, sandbox: OdSandbox): Promise<string> {
  const reply = (await api(daemon, "POST", "/api/projects", { name: "realcli", path: sandbox.project })) as { project: { id: string } };
  return reply.project.id;
}

/** Parse `id:`/`event:`/`data:` frames from an SSE body; yields each frame's RunEvent. */
export async function* sseRunEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<RunEvent> {
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of body) {
    buffered += decoder.decode(chunk, { stream: true }).replaceAll("\r\n", "\n");
    let boundary;
    while ((boundary = buffered.indexOf("\n\n")) >= 0) {
      const frame = buffered.slice(0, boundary);
      buffered = buffered.slice(boundary + 2);
      const data = frame
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).replace(/^ /, ""))
        .join("\n");
      if (!data) continue;
      try {
        const parsed = RunEvent.safeParse(JSON.parse(data));
        if (parsed.success) yield parsed.data;
      } catch {
        // Not a RunEvent frame (comment, heartbeat).
      }
    }
  }
}

/** What one HTTP run did, in the shape the scenario checks read. */
export type HttpRunResult = ObservedRun & { runId: string; conversationId: string; seconds: number };

/**
 * POST /api/runs, then read its SSE stream until `end` (bounded). With `cancelWhen`, POST /api/runs/:id/cancel
 * once it resolves; `secondsAfterSignal` is the time from that request to the `end` event.
 */
export async function runViaHttp(
  daemon: RunningDaemon,
  input: { projectId: string; agentId: string; message: string; conversationId?: string },
  options: { timeoutMs?: number; cancelWhen?: () => Promise<void> } = {},
): Promise<HttpRunResult> {
  const started = performance.now();
  const created = (await api(daemon, "POST", "/api/runs", input)) as { runId: string; conversationId: string };
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), options.timeoutMs ?? 90_000);
  const events: RunEvent[] = [];
  let canceledAt: number | null = null;
  let endedAt: number | null = null;
  if (options.cancelWhen) {
    void options
      .cancelWhen()
      .then(async () => {
        canceledAt = performance.now();
        await api(daemon, "POST", `/api/runs/${created.runId}/cancel`, {});
      })
      .catch(() => undefined);
  }
  try {
    const response = await fetch(`${daemon.origin}/api/runs/${created.runId}/events`, {
      headers: { authorization: `Bearer ${daemon.token}`, accept: "text/event-stream" },
      signal: abort.signal,
    });
    if (!response.ok || !response.body) throw new Error(`GET events → ${response.status}`);
    for await (const event of sseRunEvents(response.body)) {
      events.push(event);
      if (event.type === "end") {
        endedAt = performance.now();
        break;
      }
    }
  } catch (error) {
    if (!abort.signal.aborted) throw error;
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
  const survivors = processesWithCookie(created.runId);
  killCookie(created.runId);
  return {
    events,
    exitCode: null,
    survivors,
    secondsAfterSignal: canceledAt !== null && endedAt !== null ? Math.round((endedAt - canceledAt) / 100) / 10 : null,
    runId: created.runId,
    conversationId: created.conversationId,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
}
