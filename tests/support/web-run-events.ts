/** Builders for RunEvent streams in web model tests: typed by the contracts, ids assigned in order. */
import type { AgentEvent } from "../../server/contracts/events.ts";
import type { NewRunEvent, RunEvent, RunEventOf } from "../../server/contracts/runs.ts";

export function runEvents(runId = "run-1") {
  let id = 0;
  let ts = 1_000;
  const stamp = <E extends NewRunEvent>(event: E, step = 10) => ({ ...event, id: id++, ts: (ts += step) }) as unknown as RunEvent;
  return {
    start: (over: Partial<RunEventOf<"start">> = {}) =>
      stamp({
        type: "start",
        runId,
        agentId: "claude",
        bin: "claude",
        protocolVersion: 1,
        cwd: "/p",
        projectId: "p1",
        conversationId: "c1",
        model: null,
        reasoning: null,
        attemptIndex: 0,
        resume: "new",
        ...over,
      } as NewRunEvent),
    agent: (event: AgentEvent, step = 10) => stamp({ type: "agent", event }, step),
    end: (over: Partial<RunEventOf<"end">> = {}) =>
      stamp({ type: "end", status: "succeeded", code: 0, signal: null, reason: "done", files: [], durationMs: 500, ...over } as NewRunEvent),
    error: (code: string, message: string) => stamp({ type: "error", message, error: { code, message } }),
    stderr: (chunk: string) => stamp({ type: "stderr", chunk }),
  };
}
