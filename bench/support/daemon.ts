/** A real `od` daemon (dist/od) for the API benchmarks, reached only through its authenticated HTTP API. */
import { mkdirSync } from "node:fs";
import { startDaemonProcess, type RunningDaemon } from "../../tests/support/daemon-process.ts";

export type BenchDaemon = {
  daemon: RunningDaemon;
  pid: number;
  /** A saved project for `path` (created on first use). */
  project(path: string): Promise<string>;
  /** POST /api/runs; resolves with the run id. */
  startRun(projectId: string, agentId: string): Promise<string>;
  /** GET /api/runs/:id/events, as the raw response (the caller reads the stream). */
  events(runId: string): Promise<Response>;
  [Symbol.asyncDispose](): Promise<void>;
};

export function startBenchDaemon(od: string, dataDir: string, env: Record<string, string>): Promise<BenchDaemon> {
  return startBenchServer([od, "--port", "0", "--no-open", "--data-dir", dataDir], env);
}

/** Any server that prints od's first line and answers these calls (od, or a floor from bench/fixtures). */
export async function startBenchServer(argv: string[], env: Record<string, string>): Promise<BenchDaemon> {
  const daemon = await startDaemonProcess(argv, { env });
  const headers = { authorization: `Bearer ${daemon.token}`, "content-type": "application/json" };
  const call = async (path: string, body?: unknown) => {
    const res = await fetch(`${daemon.origin}${path}`, { method: body ? "POST" : "GET", headers, body: body ? JSON.stringify(body) : undefined });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  return {
    daemon,
    pid: daemon.child.pid,
    async project(path) {
      mkdirSync(path, { recursive: true });
      const { project } = (await call("/api/projects", { name: "bench", path })) as { project: { id: string } };
      return project.id;
    },
    async startRun(projectId, agentId) {
      return (await call("/api/runs", { projectId, agentId, message: "go" })).runId as string;
    },
    events: (runId) => fetch(`${daemon.origin}/api/runs/${runId}/events`, { headers: { authorization: headers.authorization } }),
    [Symbol.asyncDispose]: () => daemon.stop(),
  };
}

/**
 * Read a byte stream as blocks split on `separator` ("\n\n" for SSE frames, "\n" for a CLI's lines), calling
 * `onBlock` for each: the same reader serves od's stream and the harness's own floor (the CLI read directly).
 */
export async function readBlocks(stream: ReadableStream<Uint8Array>, separator: string, onBlock: (block: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of stream) {
    buffer += decoder.decode(chunk, { stream: true });
    let at: number;
    let start = 0;
    while ((at = buffer.indexOf(separator, start)) !== -1) {
      onBlock(buffer.slice(start, at));
      start = at + separator.length;
    }
    buffer = buffer.slice(start);
  }
  if (buffer) onBlock(buffer);
}

/** The data line of an SSE frame ("" when it has none). */
export function sseData(block: string): string {
  const at = block.indexOf("\ndata: ");
  if (at !== -1) return block.slice(at + 7);
  return block.startsWith("data: ") ? block.slice(6) : "";
}
