/**
 * The five compatibility scenarios every real CLI runs through od (text, write, resume, cancel, auth), as pure
 * checks over the RunEvents od printed. A check returns the problems it found (none = pass), so a test can assert
 * a pass, or, for a known upstream failure, that it still fails the same way.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentEvent } from "../../server/contracts/events.ts";
import type { RunEvent, RunEventOf } from "../../server/contracts/runs.ts";

/** The scenario names, in the order a CLI runs them. */
export const SCENARIOS = ["text", "write", "resume", "cancel", "auth"] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

export const TEXT_PROMPT = "Say hello. [[od:text]]";
export const WRITE_FILE = "od-note.txt";
export const WRITE_CONTENT = "hello from od";
export const WRITE_PROMPT = `Create the file. [[od:write path=${WRITE_FILE} content="${WRITE_CONTENT}"]]`;
export const RESUME_PROMPT = "And again. [[od:text]]";
export const SLOW_PROMPT = "Take your time. [[od:slow]]";
export const AUTH_PROMPT = "Say hello. [[od:status 401]]";
/** The cancel scenario's bound from SIGINT to od's exit. */
export const CANCEL_BOUND_SECONDS = 5;

/** Only what a check reads from a run (an od run --json result or an SSE stream). */
export type ObservedRun = {
  events: RunEvent[];
  /** od's exit code (CLI) or null (HTTP). */
  exitCode: number | null;
  survivors: number[];
  secondsAfterSignal?: number | null;
};

export function agentEvents(events: RunEvent[]): AgentEvent[] {
  return events.flatMap((event) => (event.type === "agent" ? [event.event] : []));
}

export function endOf(events: RunEvent[]): RunEventOf<"end"> | undefined {
  return events.findLast((event): event is RunEventOf<"end"> => event.type === "end");
}

export function startOf(events: RunEvent[]): RunEventOf<"start"> | undefined {
  return events.findLast((event): event is RunEventOf<"start"> => event.type === "start");
}

export function answerText(events: RunEvent[]): string {
  return agentEvents(events)
    .flatMap((event) => (event.type === "text_delta" ? [event.delta] : []))
    .join("");
}

/** One line on how the run ended, for problem messages. */
export function describeEnd(events: RunEvent[]): string {
  const end = endOf(events);
  if (!end) return "no end event";
  const errors = events.flatMap((event) => (event.type === "error" ? [event.message] : []));
  return `end ${end.status}${end.failureCategory ? `/${end.failureCategory}` : ""}: ${end.reason}${errors.length ? ` (errors: ${errors.join(" | ").slice(0, 300)})` : ""}`;
}

function expectSucceeded(run: ObservedRun, problems: string[]): void {
  const end = endOf(run.events);
  if (end?.status !== "succeeded") problems.push(`run did not succeed: ${describeEnd(run.events)}`);
  if (run.exitCode !== null && run.exitCode !== 0) problems.push(`od exited ${run.exitCode}, expected 0`);
}

function expectAnswer(run: ObservedRun, expected: string, problems: string[]): void {
  const text = answerText(run.events);
  if (!text.includes(expected)) problems.push(`text_delta events do not carry ${JSON.stringify(expected)} (got ${JSON.stringify(text.slice(0, 200))})`);
}

/** Scenario 1: the answer arrives as text_delta events and the run succeeds. */
export function checkText(run: ObservedRun): string[] {
  const problems: string[] = [];
  expectSucceeded(run, problems);
  expectAnswer(run, "od-fake: user_messages=1", problems);
  return problems;
}

/** Scenario 2: the file is in the project with the content, and a file tool_use with its tool_result shows. */
export function checkWrite(run: ObservedRun, projectDir: string): string[] {
  const problems: string[] = [];
  expectSucceeded(run, problems);
  const path = join(projectDir, WRITE_FILE);
  if (!existsSync(path)) problems.push(`${WRITE_FILE} was not written`);
  else if (readFileSync(path, "utf8").trim() !== WRITE_CONTENT) problems.push(`${WRITE_FILE} holds ${JSON.stringify(readFileSync(path, "utf8"))}`);
  const events = agentEvents(run.events);
  const uses = events.filter((event) => event.type === "tool_use");
  const use = uses.find((event) => (event.kind === "file_write" || event.kind === "file_edit") && event.path !== undefined && event.path.endsWith(WRITE_FILE));
  if (!use) {
    problems.push(`no tool_use of kind file_write/file_edit with path ${WRITE_FILE} (tool_use: ${JSON.stringify(uses.map((event) => ({ name: event.name, kind: event.kind, path: event.path })))})`);
  } else if (!events.some((event) => event.type === "tool_result" && event.toolUseId === use.id)) {
    problems.push(`no tool_result for tool_use ${use.id}`);
  }
  return problems;
}

/** Scenario 3: the second turn continues the CLI's own session, and the model saw both prompts. */
export function checkResume(first: ObservedRun, second: ObservedRun): string[] {
  const problems: string[] = [];
  if (endOf(first.events)?.status !== "succeeded") problems.push(`first turn did not succeed: ${describeEnd(first.events)}`);
  expectSucceeded(second, problems);
  const start = startOf(second.events);
  if (start?.resume !== "native") problems.push(`second turn's start says resume ${JSON.stringify(start?.resume)}, expected "native"`);
  if (start && start.conversationId !== startOf(first.events)?.conversationId) problems.push("second turn ran in another conversation");
  expectAnswer(second, "od-fake: user_messages=2", problems);
  return problems;
}

/** Scenario 4: SIGINT during a slow stream ends the run canceled (exit 130) in time, with nothing left running. */
export function checkCancel(run: ObservedRun): string[] {
  const problems: string[] = [];
  const end = endOf(run.events);
  if (end?.status !== "canceled") problems.push(`run did not end canceled: ${describeEnd(run.events)}`);
  if (run.exitCode !== null && run.exitCode !== 130) problems.push(`od exited ${run.exitCode}, expected 130`);
  if (run.secondsAfterSignal === undefined || run.secondsAfterSignal === null) problems.push("the signal was never sent");
  else if (run.secondsAfterSignal > CANCEL_BOUND_SECONDS) problems.push(`od took ${run.secondsAfterSignal} s after the signal (bound ${CANCEL_BOUND_SECONDS} s)`);
  if (run.survivors.length) problems.push(`${run.survivors.length} process(es) with the run's OD_RUN_ID survived`);
  return problems;
}

/** Scenario 5: a 401 from the provider fails the run as `auth` with sign-in guidance. */
export function checkAuth(run: ObservedRun): string[] {
  const problems: string[] = [];
  const end = endOf(run.events);
  if (end?.status !== "failed") problems.push(`run did not fail: ${describeEnd(run.events)}`);
  else if (end.failureCategory !== "auth") problems.push(`failureCategory ${JSON.stringify(end.failureCategory)}, expected "auth" (${describeEnd(run.events)})`);
  else if (!end.guidance?.trim()) problems.push("the auth failure carries no guidance");
  if (run.exitCode !== null && run.exitCode !== 1) problems.push(`od exited ${run.exitCode}, expected 1`);
  return problems;
}
