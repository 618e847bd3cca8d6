import { afterEach, describe, expect, test } from "bun:test";
import { continuationRefusal, readContinuationOffer, supportsAmrContinuation } from "../../../server/runtimes/protocols/acp/amr-continuation.ts";
import { startAcpTransport } from "../../../server/runtimes/protocols/acp/index.ts";
import type { TransportOptions } from "../../../server/runtimes/protocols/types.ts";
import { isAlive, runFake, type FakeRun } from "../../support/protocol-agents.ts";

const runs: FakeRun[] = [];
afterEach(async () => {
  for (const run of runs.splice(0)) await run.cleanup();
});

const CAPABLE = { protocolVersion: 1, agentCapabilities: { loadSession: true, _meta: { "com.open-design.nativeSessionContinue": { version: 1 } } } };
const cursor = { version: 1, userMessageId: "user-1", assistantMessageId: "assistant-tool", toolResultsCommitted: true };
const incomplete = (overrides: Record<string, unknown> = {}) => ({
  error: {
    code: -32600,
    message: "opencode compaction continuation ended before prompt completion",
    data: { kind: "opencode_continuation_incomplete", code: "OPENCODE_COMPACTION_CONTINUATION_INCOMPLETE", retryable: false, openCodeSessionId: "oc-1", continuation: cursor, ...overrides },
  },
});
const toolCall = { update: { sessionUpdate: "tool_call", toolCallId: "write-once", title: "Write", kind: "edit", status: "in_progress", rawInput: { file_path: "result.txt", content: "once" } } };
const toolDone = { update: { sessionUpdate: "tool_call_update", toolCallId: "write-once", status: "completed", content: [{ type: "content", content: { type: "text", text: "written" } }] } };
const recovered = [{ requirePreviousGone: true }, { update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Recovered final reply." } } }, { result: { stopReason: "end_turn" } }];

function script(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    initialize: { result: CAPABLE },
    sessionNew: { result: { sessionId: "acp-1", openCodeSessionId: "oc-1" } },
    sessionLoad: { result: { sessionId: "acp-1", openCodeSessionId: "oc-1" } },
    prompt: [toolCall, toolDone, incomplete()],
    continue: recovered,
    ...overrides,
  };
}

async function amr(scriptValue: Record<string, unknown>, overrides: Partial<TransportOptions> = {}): Promise<FakeRun> {
  const run = await runFake("acp-agent", scriptValue, startAcpTransport, overrides);
  runs.push(run);
  return run;
}

describe("AMR compaction continuation", () => {
  test("continues once in a new process with only the cursor, after the old process is gone", async () => {
    const run = await amr(script());
    const result = await run.session.result;
    expect(result).toEqual({ status: "completed", sessionId: "acp-1" });
    const ledger = run.ledger();
    const continues = ledger.filter((frame) => frame.method === "_session/continue");
    expect(continues).toHaveLength(1);
    expect(continues[0]?.params).toEqual({ sessionId: "acp-1", continuation: cursor });
    const loads = ledger.filter((frame) => frame.method === "session/load");
    expect(loads).toHaveLength(1);
    expect(loads[0]?.pid).toBe(continues[0]?.pid);
    const promptPid = ledger.find((frame) => frame.method === "session/prompt")?.pid;
    expect(promptPid).not.toBe(continues[0]?.pid);
    expect(isAlive(Number(promptPid))).toBe(false);
    const events = await run.done;
    expect(events.filter((e) => e.type === "text_delta").map((e) => (e as { delta: string }).delta).join("")).toBe("Recovered final reply.");
    expect(events.filter((e) => e.type === "tool_use")).toHaveLength(1);
  });

  const refusals: [string, Record<string, unknown>, Partial<TransportOptions>, string][] = [
    ["the agent does not advertise the extension", { initialize: { result: { protocolVersion: 1, agentCapabilities: { loadSession: true } } } }, {}, "AMR_CONTINUATION_UNSUPPORTED"],
    ["a tool call is still running in our frames", { prompt: [toolCall, incomplete()] }, {}, "AMR_CONTINUATION_TOOLS_PENDING"],
    ["the cursor says tool results are not committed", { prompt: [incomplete({ continuation: { ...cursor, toolResultsCommitted: false } })] }, {}, "AMR_CONTINUATION_INVALID_CURSOR"],
    ["the error names another durable session", { prompt: [incomplete({ openCodeSessionId: "oc-other" })] }, {}, "AMR_CONTINUATION_SESSION_MISMATCH"],
    ["the reloaded session is another durable session", { sessionLoad: { result: { sessionId: "acp-1", openCodeSessionId: "wrong" } } }, {}, "AMR_CONTINUATION_SESSION_MISMATCH"],
    ["session/load fails in the new process", { sessionLoad: { error: { code: -32600, message: "session gone", data: { kind: "resume_failed" } } } }, {}, "AMR_CONTINUATION_LOAD_FAILED"],
    ["the continuation ends incomplete again (at most once per run)", { continue: [toolCall, toolDone, incomplete()] }, {}, "AMR_CONTINUATION_LIMIT"],
    ["there is no way to start a new process", {}, { respawn: undefined }, "AMR_CONTINUATION_NO_RESPAWN"],
  ];
  for (const [name, overrides, options, code] of refusals) {
    test(`refuses with ${code} when ${name}`, async () => {
      const run = await amr(script(overrides), options);
      const result = await run.session.result;
      expect(result.status).toBe("failed");
      expect(result.error?.code).toBe(code);
      expect((await run.done).some((e) => e.type === "error" && e.code === code && e.terminal === true)).toBe(true);
      const continues = run.ledger().filter((frame) => frame.method === "_session/continue");
      expect(continues.length).toBeLessThanOrEqual(1);
    });
  }

  test("an ordinary prompt error is not a continuation", async () => {
    const run = await amr(script({ prompt: [{ error: { code: -32603, message: "provider rejected", data: { kind: "opencode_prompt_error", retryable: true } } }] }));
    expect((await run.session.result).error).toEqual({ code: "AGENT_EXECUTION_FAILED", message: "provider rejected", retryable: true });
    expect(run.ledger().some((frame) => frame.method === "session/load")).toBe(false);
  });

  test("pure decisions", () => {
    expect(supportsAmrContinuation(CAPABLE)).toBe(true);
    expect(supportsAmrContinuation({ agentCapabilities: { _meta: CAPABLE.agentCapabilities._meta } })).toBe(false);
    expect(readContinuationOffer({ code: "OTHER" })).toEqual({ kind: "none" });
    expect(readContinuationOffer(incomplete().error.data)).toEqual({ kind: "cursor", durableSessionId: "oc-1", cursor: cursor as never });
    const offer = readContinuationOffer(incomplete().error.data);
    if (offer.kind === "none") throw new Error("expected an offer");
    const base = { offer, supported: true, alreadyContinued: false, canRespawn: true, sessionDurableId: "oc-1", openToolIds: [] };
    expect(continuationRefusal(base, "x")).toBeNull();
    expect(continuationRefusal({ ...base, alreadyContinued: true }, "x")?.code).toBe("AMR_CONTINUATION_LIMIT");
  });
});
