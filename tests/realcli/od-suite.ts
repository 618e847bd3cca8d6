/**
 * Runs the five scenarios for one real CLI through `od run --json` (or a daemon's HTTP API) and returns each
 * scenario's problems. Text →
 * resume share a conversation; write, cancel and auth run on their own. CLIs run concurrently under a small
 * process budget (2 cores), scenarios of one CLI one after another.
 */
import { beforeAll } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { LoggedRequest } from "../fakes/model-server.ts";
import { createProject, runViaHttp, startOdDaemon, type HttpRunResult } from "./od-http.ts";
import { runOd, waitFor, type OdRunResult } from "./od-process.ts";
import { createOdSandbox, type OdSandbox } from "./od-sandbox.ts";
import {
  AUTH_PROMPT,
  checkAuth,
  checkCancel,
  checkResume,
  checkText,
  checkWrite,
  RESUME_PROMPT,
  SLOW_PROMPT,
  startOf,
  TEXT_PROMPT,
  WRITE_FILE,
  WRITE_PROMPT,
  type ObservedRun,
  type ScenarioName,
} from "./od-scenarios.ts";
import { ensureRealClis } from "./setup.ts";
import type { RealCliId } from "./versions.ts";

/** One scenario's verdict plus what to print when it is unexpected. */
export type ScenarioOutcome = { problems: string[]; details: string };

export type CliOutcomes = Record<ScenarioName, ScenarioOutcome>;

function observed(result: OdRunResult): ObservedRun {
  return { events: result.events, exitCode: result.exit.code, survivors: result.survivors, secondsAfterSignal: result.secondsAfterSignal };
}

/** A compact trace of a run for failure messages: exit, timing, event types, stderr tail. */
export function traceOf(result: OdRunResult, fakeLog: LoggedRequest[] = []): string {
  const types = result.events.map((event) => (event.type === "agent" ? event.event.type : event.type));
  return [
    `exit ${JSON.stringify(result.exit)} in ${result.seconds} s${result.timedOut ? " (TIMED OUT)" : ""}${result.secondsAfterSignal !== null ? `, ${result.secondsAfterSignal} s after the signal` : ""}`,
    `events: ${types.join(" ")}`,
    ...(result.strayLines.length ? [`stray stdout: ${result.strayLines.slice(0, 5).join(" | ")}`] : []),
    `fake saw: ${fakeLog.map((entry) => `${entry.route}:${entry.scenario ?? "-"}:${entry.status}`).join(" ")}`,
    `stderr tail: ${result.stderr.trim().split("\n").slice(-8).join(" | ")}`,
    ...result.events.filter((event) => event.type === "stderr").slice(-4).map((event) => `agent stderr: ${"chunk" in event ? event.chunk.slice(0, 300) : ""}`),
  ].join("\n");
}

async function scenario(sandbox: OdSandbox, run: () => Promise<{ problems: string[]; results: OdRunResult[] }>): Promise<ScenarioOutcome> {
  sandbox.fake.clearRequests();
  try {
    const { problems, results } = await run();
    const log = sandbox.fake.requests();
    return { problems, details: results.map((result) => traceOf(result, log)).join("\n---\n") };
  } catch (error) {
    return { problems: [`scenario threw: ${(error as Error).message}`], details: (error as Error).stack ?? "" };
  }
}

const isSlowRequest = (entry: LoggedRequest) => entry.scenario === "slow" && (entry.toolNames?.length ?? 0) > 0;

/** Run all five scenarios for one CLI in a fresh sandbox. */
export async function runCliScenarios(cli: RealCliId, options: { timeoutMs?: number } = {}): Promise<CliOutcomes> {
  const sandbox = await createOdSandbox(cli);
  const timeoutMs = options.timeoutMs ?? 90_000;
  try {
    let firstTurn: OdRunResult | undefined;
    const text = await scenario(sandbox, async () => {
      firstTurn = await runOd(sandbox, TEXT_PROMPT, { timeoutMs });
      return { problems: checkText(observed(firstTurn)), results: [firstTurn] };
    });
    const resume = await scenario(sandbox, async () => {
      const conversationId = firstTurn && startOf(firstTurn.events)?.conversationId;
      if (!firstTurn || !conversationId) return { problems: ["the first turn printed no start event with a conversationId"], results: firstTurn ? [firstTurn] : [] };
      const second = await runOd(sandbox, RESUME_PROMPT, { timeoutMs, conversationId });
      return { problems: checkResume(observed(firstTurn), observed(second)), results: [second] };
    });
    const write = await scenario(sandbox, async () => {
      rmSync(join(sandbox.project, WRITE_FILE), { force: true });
      const result = await runOd(sandbox, WRITE_PROMPT, { timeoutMs });
      return { problems: checkWrite(observed(result), sandbox.project), results: [result] };
    });
    const cancel = await scenario(sandbox, async () => {
      const result = await runOd(sandbox, SLOW_PROMPT, {
        timeoutMs,
        interrupt: {
          signal: "SIGINT",
          when: async ({ child }) => {
            let exited = false;
            void child.exited.then(() => (exited = true));
            await waitFor(() => exited || sandbox.fake.requests().some(isSlowRequest), timeoutMs - 5_000, "the slow model request");
            if (exited) throw new Error("od exited before the slow request");
          },
        },
      });
      return { problems: checkCancel(observed(result)), results: [result] };
    });
    const auth = await scenario(sandbox, async () => {
      const result = await runOd(sandbox, AUTH_PROMPT, { timeoutMs });
      return { problems: checkAuth(observed(result)), results: [result] };
    });
    return { text, write, resume, cancel, auth };
  } finally {
    await sandbox.dispose();
  }
}

/**
 * Registers a beforeAll that installs the pinned CLIs, then starts `task` for each of `clis` (at most `limit` at
 * once). The returned lookup rethrows an install failure in every test, else awaits that CLI's result (undefined
 * when it never started).
 */
export function afterRealClisInstalled<R>(clis: readonly RealCliId[], limit: number, task: (cli: RealCliId) => Promise<R>): (cli: RealCliId) => Promise<R | undefined> {
  let results: Map<RealCliId, Promise<R>> | undefined;
  let installError: Error | undefined;
  beforeAll(async () => {
    try {
      await ensureRealClis();
    } catch (error) {
      installError = error as Error;
      return;
    }
    results = withConcurrency(clis, limit, task);
    // Settle rejections here too, so an early failure is never an unhandled rejection.
    for (const result of results.values()) result.catch(() => undefined);
  }, 20 * 60_000);
  return async (cli) => {
    if (installError) throw installError;
    return results?.get(cli);
  };
}

/** Run `task` for every item with at most `limit` running at once. */
export function withConcurrency<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Map<T, Promise<R>> {
  let running = 0;
  const queue: Array<() => void> = [];
  const acquire = () =>
    new Promise<void>((resolve) => {
      const grant = () => {
        running += 1;
        resolve();
      };
      if (running < limit) grant();
      else queue.push(grant);
    });
  const release = () => {
    running -= 1;
    queue.shift()?.();
  };
  const results = new Map<T, Promise<R>>();
  for (const item of items) {
    results.set(
      item,
      acquire().then(async () => {
        try {
          return await task(item);
        } finally {
          release();
        }
      }),
    );
  }
  return results;
}

/** The same five scenarios through a real daemon process: HTTP API + SSE, cancel via POST /api/runs/:id/cancel. */
export async function runCliScenariosOverHttp(cli: RealCliId, options: { timeoutMs?: number } = {}): Promise<CliOutcomes> {
  const sandbox = await createOdSandbox(cli);
  const timeoutMs = options.timeoutMs ?? 90_000;
  const daemon = await startOdDaemon(sandbox);
  const trace = (run: HttpRunResult) =>
    [`run ${run.runId} in ${run.seconds} s`, `events: ${run.events.map((event) => (event.type === "agent" ? event.event.type : event.type)).join(" ")}`, `daemon stderr tail: ${daemon.stderr().trim().split("\n").slice(-5).join(" | ")}`].join("\n");
  const step = async (run: () => Promise<{ problems: string[]; runs: HttpRunResult[] }>): Promise<ScenarioOutcome> => {
    sandbox.fake.clearRequests();
    try {
      const { problems, runs } = await run();
      return { problems, details: runs.map(trace).join("\n---\n") };
    } catch (error) {
      return { problems: [`scenario threw: ${(error as Error).message}`], details: daemon.stderr().slice(-2000) };
    }
  };
  try {
    const projectId = await createProject(daemon, sandbox);
    const input = (message: string, conversationId?: string) => ({ projectId, agentId: sandbox.agentId, message, ...(conversationId ? { conversationId } : {}) });
    let first: HttpRunResult | undefined;
    const text = await step(async () => {
      first = await runViaHttp(daemon, input(TEXT_PROMPT), { timeoutMs });
      return { problems: checkText(first), runs: [first] };
    });
    const resume = await step(async () => {
      if (!first) return { problems: ["no first turn"], runs: [] };
      const second = await runViaHttp(daemon, input(RESUME_PROMPT, first.conversationId), { timeoutMs });
      return { problems: checkResume(first, second), runs: [second] };
    });
    const write = await step(async () => {
      rmSync(join(sandbox.project, WRITE_FILE), { force: true });
      const run = await runViaHttp(daemon, input(WRITE_PROMPT), { timeoutMs });
      return { problems: checkWrite(run, sandbox.project), runs: [run] };
    });
    const cancel = await step(async () => {
      const run = await runViaHttp(daemon, input(SLOW_PROMPT), {
        timeoutMs,
        cancelWhen: () => waitFor(() => sandbox.fake.requests().some(isSlowRequest), timeoutMs - 5_000, "the slow model request"),
      });
      return { problems: checkCancel(run), runs: [run] };
    });
    const auth = await step(async () => {
      const run = await runViaHttp(daemon, input(AUTH_PROMPT), { timeoutMs });
      return { problems: checkAuth(run), runs: [run] };
    });
    return { text, write, resume, cancel, auth };
  } finally {
    await daemon.stop();
    await sandbox.dispose();
  }
}
