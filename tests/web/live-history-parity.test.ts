/**
 * Issue #34: a turn looks the same live and after a reload, by construction. Every recorded transcript under
 * tests/fixtures is parsed by its parser and wrapped as a run's RunEvents (start … end) that succeeded, was canceled,
 * failed, or crashed (recovery's `daemon_restart` end) with tool calls left without results. The same events are
 * folded the way the page folds them live (the run model, fed in random chunks, one flush per chunk, with a reconnect
 * replaying from an earlier id) and the way it folds them as history (stored as JSON, coalesced by the daemon's
 * history, sent as JSON, folded by the page's history path); the two view models must be deep-equal.
 */
import { describe, expect, test } from "bun:test";
import { relative } from "node:path";
import type { AgentEvent } from "../../server/contracts/events.ts";
import type { Message } from "../../server/contracts/projects.ts";
import type { RunEvent, RunEventOf } from "../../server/contracts/runs.ts";
import { RunHistory } from "../../server/runs/history.ts";
import { historyState } from "../../web/state/run-history.ts";
import { createRunModel } from "../../web/state/run-model.ts";
import type { RunItem, RunState } from "../../web/state/run-state.ts";
import { manualScheduler } from "../../web/state/scheduler.ts";
import { FIXTURES_DIR, listFixtures, parseFixture } from "../runtimes/streams/golden.ts";
import { runEvents } from "../support/web-run-events.ts";

type Ending = "succeeded" | "canceled" | "failed" | "crashed";
const ENDINGS: Ending[] = ["succeeded", "canceled", "failed", "crashed"];

/** A small deterministic PRNG (mulberry32), so a failure names a seed that reproduces it. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Where a run that did not succeed stops: just after the first tool call whose result comes later (so calls are left
 * without results), else halfway.
 */
function cutPoint(events: readonly AgentEvent[]): number {
  const open = events.findIndex((event, i) => event.type === "tool_use" && events.slice(i + 1).some((later) => later.type === "tool_result" && later.toolUseId === event.id));
  return open >= 0 ? open + 1 : Math.ceil(events.length / 2);
}

/** The transcript as one run's RunEvents ending `ending`, with stderr and stdout chunks between (raw output). */
function asRun(agentEvents: readonly AgentEvent[], ending: Ending): RunEvent[] {
  const e = runEvents("run-parity");
  const kept = ending === "succeeded" ? agentEvents : agentEvents.slice(0, cutPoint(agentEvents));
  const events: RunEvent[] = [e.start({ model: "model-from-start" })];
  kept.forEach((event, i) => {
    events.push(e.agent(event, 1 + (i % 7) * 50));
    if (i % 11 === 3) events.push(e.stderr(`warning ${i}\n`), e.stderr("more\n"));
  });
  const endOf = (over: Partial<RunEventOf<"end">>) => e.end({ files: [], durationMs: 1234, ...over });
  switch (ending) {
    case "succeeded":
      events.push(endOf({ status: "succeeded", reason: "completed" }));
      break;
    case "canceled":
      events.push(endOf({ status: "canceled", failureCategory: "cancel", reason: "canceled", code: null, signal: "SIGTERM" }));
      break;
    case "failed":
      events.push(e.error("AGENT_EXECUTION_FAILED", "the agent exited with code 1"));
      events.push(endOf({ status: "failed", failureCategory: "unknown", reason: "the agent exited with code 1", code: 1 }));
      break;
    case "crashed":
      events.push(endOf({ status: "failed", failureCategory: "crash", failureDetail: "daemon_restart", reason: "od stopped while this run was in progress", code: null }));
      break;
  }
  return events;
}

/** The page, live: the run model fed `events` in random chunks (one frame each), a reconnect replaying from an earlier id. */
function foldLive(events: readonly RunEvent[], seed: number): RunState {
  const next = random(seed);
  const frames = manualScheduler();
  const model = createRunModel({ runId: "run-parity", schedule: frames.schedule });
  const reconnectAt = Math.floor(next() * events.length);
  const replayFrom = Math.floor(next() * (reconnectAt + 1));
  const delivered = [...events.slice(0, reconnectAt), ...events.slice(replayFrom)];
  for (let i = 0; i < delivered.length; ) {
    const size = 1 + Math.floor(next() * 8);
    for (const event of delivered.slice(i, i + size)) model.receive(structuredClone(event));
    frames.runFrame();
    i += size;
  }
  return model.state.value;
}

/** The page, reloaded: the events as the store keeps them, through the daemon's history, over JSON, folded as history. */
function foldHistory(events: readonly RunEvent[]): RunState {
  const history = new RunHistory();
  for (const event of events) history.push(JSON.parse(JSON.stringify(event)) as RunEvent);
  const wire = JSON.parse(JSON.stringify({ events: history.events })) as { events: RunEvent[] };
  const message: Message = {
    id: "msg-parity", conversationId: "c1", role: "assistant", text: "the stored answer", runId: "run-parity", runStatus: "succeeded",
    agentId: "claude", startedAt: 1, endedAt: 2, files: [], createdAt: 1,
  };
  return historyState(message, wire.events);
}

function toolStates(items: readonly RunItem[]): string[] {
  return items.flatMap((item) => (item.kind === "tool" ? [item.state, ...toolStates(item.children ?? [])] : []));
}

const fixtures = listFixtures();

test("there are recorded transcripts of every line-oriented parser family to fold", () => {
  expect(fixtures.length).toBeGreaterThan(40);
});

describe("live and reloaded views are equal", () => {
  for (const fixture of fixtures) {
    const name = relative(FIXTURES_DIR, fixture.file);
    test(name, async () => {
      const agentEvents = await parseFixture(fixture);
      for (const [index, ending] of ENDINGS.entries()) {
        const events = asRun(agentEvents, ending);
        const live = foldLive(events, name.length * 31 + index);
        const reloaded = foldHistory(events);
        expect(reloaded).toEqual(live);
        // Nothing is left running, and a call cut off by the end is never shown as done or failed.
        const states = toolStates(live.items);
        expect(states).not.toContain("running");
        if (ending === "canceled") expect(states.filter((s) => s === "interrupted")).toEqual([]);
        if (ending === "failed" || ending === "crashed") expect(states.filter((s) => s === "canceled")).toEqual([]);
      }
    });
  }

  test("a run cut off with a call open shows it canceled or interrupted, live and reloaded", async () => {
    const shell = fixtures.find((f) => relative(FIXTURES_DIR, f.file) === "claude/shell.jsonl")!;
    const agentEvents = await parseFixture(shell);
    const expected: Record<Ending, string> = { succeeded: "done", canceled: "canceled", failed: "interrupted", crashed: "interrupted" };
    for (const ending of ENDINGS) {
      const events = asRun(agentEvents, ending);
      const reloaded = foldHistory(events);
      expect(toolStates(reloaded.items).at(-1)).toBe(expected[ending]);
      expect(reloaded.model).toBe("claude-opus-5-5");
      expect(reloaded.ttftMs).toBeGreaterThan(0);
    }
  });
});
