/**
 * Runs `od run --json` as a real process (`bun server/main.ts run …`) and reads its RunEvent lines. Every run is
 * bounded: on timeout od's group gets SIGTERM then SIGKILL, and afterwards every process still carrying the run's
 * `OD_RUN_ID` cookie is reported and killed, so a failing scenario never leaves a CLI behind.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { spawnChild, type ChildExit, type ChildHandle } from "../../server/platform/process.ts";
import { RunEvent } from "../../server/contracts/runs.ts";
import { RUN_COOKIE_VAR } from "../../server/runtimes/env.ts";
import type { OdSandbox } from "./od-sandbox.ts";

const REPO_ROOT = join(import.meta.dir, "..", "..");
const BUN = process.execPath;

/** What one `od run` did. */
export type OdRunResult = {
  events: RunEvent[];
  /** stdout lines that were not RunEvents (should be none). */
  strayLines: string[];
  stderr: string;
  exit: ChildExit;
  timedOut: boolean;
  seconds: number;
  /** Seconds from the signal (when one was sent) to od's exit. */
  secondsAfterSignal: number | null;
  runId: string | null;
  /** pids that still carried the run's cookie right after od exited (then killed). */
  survivors: number[];
};

export type OdRunOptions = {
  conversationId?: string;
  timeoutMs?: number;
  /** Send this signal to od (not its group) once `when` resolves. */
  interrupt?: { signal: NodeJS.Signals; when: (progress: OdRunProgress) => Promise<void> };
};

/** Live view of a run in progress, for `interrupt.when`. */
export type OdRunProgress = { events: RunEvent[]; child: ChildHandle; exited: Promise<ChildExit> };

/** `od run --agent <id> --project <dir> --data-dir <dir> --json [--conversation id] prompt`, bounded. */
export async function runOd(sandbox: OdSandbox, prompt: string, options: OdRunOptions = {}): Promise<OdRunResult> {
  const argv = [BUN, join(REPO_ROOT, "server", "main.ts"), "run", "--agent", sandbox.agentId, "--project", sandbox.project, "--data-dir", sandbox.dataDir, "--json"];
  if (options.conversationId) argv.push("--conversation", options.conversationId);
  argv.push(prompt);
  const started = performance.now();
  const child = await spawnChild({ argv, env: sandbox.env, cwd: sandbox.project, stdin: "ignore", ownProcessGroup: true });
  const events: RunEvent[] = [];
  const strayLines: string[] = [];
  let stderr = "";
  let timedOut = false;
  let signaledAt: number | null = null;
  const timeoutMs = options.timeoutMs ?? 90_000;
  let killTimer: ReturnType<typeof setTimeout> | undefined;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGTERM", { group: true });
    killTimer = setTimeout(() => child.kill("SIGKILL", { group: true }), 3_000);
  }, timeoutMs);

  const readStdout = (async () => {
    const decoder = new TextDecoder();
    let buffered = "";
    const take = (line: string) => {
      if (!line.trim()) return;
      try {
        const parsed = RunEvent.safeParse(JSON.parse(line));
        if (parsed.success) events.push(parsed.data);
        else strayLines.push(line);
      } catch {
        strayLines.push(line);
      }
    };
    for await (const chunk of child.stdout) {
      buffered += decoder.decode(chunk, { stream: true });
      let newline;
      while ((newline = buffered.indexOf("\n")) >= 0) {
        take(buffered.slice(0, newline));
        buffered = buffered.slice(newline + 1);
      }
    }
    take(buffered + decoder.decode());
  })();
  const readStderr = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stderr) stderr += decoder.decode(chunk, { stream: true });
  })();

  if (options.interrupt) {
    const { signal, when } = options.interrupt;
    void when({ events, child, exited: child.exited })
      .then(() => {
        if (timedOut) return;
        signaledAt = performance.now();
        child.kill(signal);
      })
      .catch(() => undefined);
  }

  const [exit] = await Promise.all([child.exited, readStdout, readStderr]);
  const ended = performance.now();
  clearTimeout(timer);
  if (killTimer) clearTimeout(killTimer);
  const runId = events.find((event) => event.type === "start")?.runId ?? null;
  const survivors = runId ? processesWithCookie(runId) : [];
  child.kill("SIGKILL", { group: true });
  if (runId) killCookie(runId);
  return {
    events,
    strayLines,
    stderr,
    exit,
    timedOut,
    seconds: round((ended - started) / 1000),
    secondsAfterSignal: signaledAt === null ? null : round((ended - signaledAt) / 1000),
    runId,
    survivors,
  };
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

/** Live (non-zombie) pids whose environment carries `OD_RUN_ID=<runId>`. */
export function processesWithCookie(runId: string): number[] {
  const needle = `${RUN_COOKIE_VAR}=${runId}`;
  const pids: number[] = [];
  let entries: string[] = [];
  try {
    entries = readdirSync("/proc");
  } catch {
    return pids;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "latin1");
      if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) continue;
      if (readFileSync(`/proc/${entry}/environ`, "latin1").split("\0").includes(needle)) pids.push(Number(entry));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return pids;
}

/** SIGKILL every process carrying the run's cookie. */
export function killCookie(runId: string): void {
  for (const pid of processesWithCookie(runId)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

/** Poll `check` every 50 ms until it is true or `timeoutMs` passes. */
export async function waitFor(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
