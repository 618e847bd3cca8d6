/**
 * Runs one real CLI to completion under a hard time bound: its own process group, killed (SIGTERM, then
 * SIGKILL) on timeout, and every process still carrying the run's tag in its environment killed afterwards,
 * because some CLIs start tools in a new session that a group kill misses (real-clis.md §15.2).
 */
import { readdirSync, readFileSync } from "node:fs";
import { spawnChild, type ChildExit } from "../../server/platform/process.ts";

/** Env variable whose value tags every process of one run. */
export const RUN_TAG_VARIABLE = "OD_REALCLI_RUN";

export type BoundedRun = {
  argv: string[];
  env: Record<string, string>;
  cwd: string;
  /** Written to stdin, which is then closed; without it stdin is /dev/null. */
  stdinText?: string;
  timeoutMs: number;
};

export type BoundedRunResult = {
  stdout: string;
  stderr: string;
  exit: ChildExit;
  timedOut: boolean;
  seconds: number;
  /** Processes that outlived the CLI and were killed afterwards. */
  leftovers: number;
};

let runCounter = 0;

export async function runCliBounded(run: BoundedRun): Promise<BoundedRunResult> {
  runCounter += 1;
  const tag = `${process.pid}-${runCounter}-${Date.now()}`;
  const started = performance.now();
  const child = await spawnChild({
    argv: run.argv,
    env: { ...run.env, [RUN_TAG_VARIABLE]: tag },
    cwd: run.cwd,
    stdin: run.stdinText === undefined ? "ignore" : "pipe",
    ownProcessGroup: true,
  });
  let timedOut = false;
  let killTimer: ReturnType<typeof setTimeout> | undefined;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGTERM", { group: true });
    killTimer = setTimeout(() => child.kill("SIGKILL", { group: true }), 3000);
  }, run.timeoutMs);
  if (run.stdinText !== undefined && child.stdin) {
    await child.stdin.write(run.stdinText).catch(() => undefined);
    child.stdin.end();
  }
  const [exit, stdout, stderr] = await Promise.all([child.exited, collect(child.stdout), collect(child.stderr)]);
  clearTimeout(timer);
  if (killTimer) clearTimeout(killTimer);
  child.kill("SIGKILL", { group: true });
  const leftovers = killTagged(tag);
  return { stdout, stderr, exit, timedOut, seconds: Math.round((performance.now() - started) / 100) / 10, leftovers };
}

async function collect(stream: AsyncIterable<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

/** SIGKILL every process whose environment carries `tag`; returns how many were found. */
export function killTagged(tag: string): number {
  const needle = `${RUN_TAG_VARIABLE}=${tag}\0`;
  let found = 0;
  let entries: string[] = [];
  try {
    entries = readdirSync("/proc");
  } catch {
    return 0;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/environ`, "latin1").includes(needle)) continue;
      process.kill(Number(entry), "SIGKILL");
      found += 1;
    } catch {
      // Gone already, or not ours to read.
    }
  }
  return found;
}
