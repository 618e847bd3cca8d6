// Protocol transports (ACP, pi rpc) driven by the run service against scriptable fake agents as real processes.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { RunEvent } from "../../server/contracts/runs.ts";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import { agentEvents, endOf, processesWithRunCookie, runHarness } from "../support/fake-agents.ts";

const fakes = join(import.meta.dir, "..", "fakes");
const update = (u: Record<string, unknown>) => ({ update: u });

describe("ACP through the run service (kiro def)", () => {
  const acpScript = {
    initialize: { result: { protocolVersion: 1, agentCapabilities: { loadSession: true }, agentInfo: { name: "fake", version: "1.0.0" } } },
    sessionNew: { result: { sessionId: "acp-session-7" } },
    prompt: [
      update({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "Let me think." } }),
      update({ sessionUpdate: "tool_call", toolCallId: "t1", title: "Write hello.txt", kind: "edit", status: "pending", rawInput: { path: "hello.txt", content: "hi" } }),
      { request: { method: "session/request_permission", params: { sessionId: "acp-session-7", toolCall: { toolCallId: "t1" }, options: [{ optionId: "once", kind: "allow_once", name: "Allow" }, { optionId: "always", kind: "allow_always", name: "Always" }] } } },
      update({ sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed", rawOutput: "wrote it" }),
      update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Done: hello.txt" } }),
      { result: { stopReason: "end_turn" } },
    ],
  };

  test.concurrent("a turn streams thinking, one tool_use + tool_result, text; the session id is kept for resume via session/load", async () => {
    await using h = await runHarness({
      defs: [getAgentDef("kiro")!],
      shims: { "kiro-cli": join(fakes, "acp-agent.ts") },
      env: { FAKE_ACP_SCRIPT: JSON.stringify(acpScript) },
    });
    const first = await h.run({ agentId: "kiro", message: "write hello" });
    const events = agentEvents(first.events);
    expect(events.filter((e) => e.type === "thinking_delta").map((e) => e.type === "thinking_delta" && e.delta).join("")).toBe("Let me think.");
    const tools = events.filter((e) => e.type === "tool_use" || e.type === "tool_result");
    expect(tools).toEqual([
      expect.objectContaining({ type: "tool_use", id: "t1", name: "Write", kind: "file_write", path: "hello.txt" }),
      expect.objectContaining({ type: "tool_result", toolUseId: "t1", content: "wrote it" }),
    ]);
    expect(endOf(first.events).status).toBe("succeeded");
    expect(h.store.agentSessions.get(first.conversationId, "kiro")).toBe("acp-session-7");

    const second = await h.run({ agentId: "kiro", message: "again", conversationId: first.conversationId });
    expect(second.events[0]).toMatchObject({ type: "start", resume: "native" });
    expect(endOf(second.events).status).toBe("succeeded");
  });

  test.concurrent("an agent that stays up after its turn (stdin closed) is stopped soon after, not after the cancel grace", async () => {
    await using h = await runHarness({
      defs: [getAgentDef("kiro")!],
      shims: { "kiro-cli": join(fakes, "acp-agent.ts") },
      env: { FAKE_ACP_SCRIPT: JSON.stringify({ ...acpScript, stayUpAfterEof: true }) },
      // A cancel grace far past this test's timeout: the run ends only if a finished session's client is not given it.
      timeouts: { cancelGraceMs: 60_000 },
    });
    const created = await h.service.create({ projectId: h.projectId, agentId: "kiro", message: "write hello" });
    const events: RunEvent[] = [];
    for await (const event of h.service.events(created.runId)) events.push(event);
    expect(endOf(events).status).toBe("succeeded");
    expect(agentEvents(events).some((e) => e.type === "text_delta" && e.delta === "Done: hello.txt")).toBe(true);
    expect(h.store.agentSessions.get(created.conversationId, "kiro")).toBe("acp-session-7");
    expect(processesWithRunCookie(created.runId)).toEqual([]);
  });

  test.concurrent("cancel mid-turn sends session/cancel; the run ends canceled and no process is left", async () => {
    const script = { ...acpScript, prompt: [update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "working" } }), { waitForCancel: true }, { result: { stopReason: "cancelled" } }] };
    await using h = await runHarness({
      defs: [getAgentDef("kiro")!],
      shims: { "kiro-cli": join(fakes, "acp-agent.ts") },
      env: { FAKE_ACP_SCRIPT: JSON.stringify(script) },
      timeouts: { cancelGraceMs: 1000 },
    });
    const created = await h.service.create({ projectId: h.projectId, agentId: "kiro", message: "slow" });
    const seen: RunEvent[] = [];
    for await (const event of h.service.events(created.runId)) {
      seen.push(event);
      if (event.type === "agent" && event.event.type === "text_delta") break;
    }
    await h.service.cancel(created.runId);
    const all: RunEvent[] = [];
    for await (const event of h.service.events(created.runId)) all.push(event);
    expect(endOf(all)).toMatchObject({ status: "canceled" });
    expect(processesWithRunCookie(created.runId)).toEqual([]);
  });
});

describe("ACP permission answers the agent refuses, through the run service (gemini in an untrusted folder)", () => {
  const script = (refuse: string[]) => ({
    prompt: [
      { gatedWrite: { toolCallId: "w1", path: "index.html", content: "<p>hi</p>", refuse } },
      { gatedWrite: { toolCallId: "w2", path: "index.html", content: "<p>hi</p>", refuse } },
      update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "All set." } }),
      { result: { stopReason: "end_turn" } },
    ],
  });
  const runWith = async (refuse: string[]) => {
    await using h = await runHarness({ defs: [getAgentDef("kiro")!], shims: { "kiro-cli": join(fakes, "acp-agent.ts") }, env: { FAKE_ACP_SCRIPT: JSON.stringify(script(refuse)) } });
    return (await h.run({ agentId: "kiro", message: "write index.html" })).events;
  };

  test.concurrent("refused allow-always: the retry gets allow-once, the file is written, the refusal stays visible", async () => {
    const events = await runWith(["allow_always"]);
    expect(endOf(events)).toMatchObject({ status: "succeeded", files: ["index.html"] });
    expect(agentEvents(events).filter((e) => e.type === "error")).toEqual([expect.objectContaining({ code: "AGENT_PERMISSION_REFUSED" })]);
  });

  test.concurrent("refused whatever od answers: the run fails with the refusal, not a success with no file", async () => {
    const events = await runWith(["allow_always", "allow_once"]);
    expect(endOf(events)).toMatchObject({ status: "failed", files: [] });
    expect(events.find((e) => e.type === "error")).toMatchObject({ error: { code: "AGENT_PERMISSION_REFUSED" } });
  });
});

describe("pi rpc through the run service", () => {
  test.concurrent("prompt command, mapped events, session file captured as the resume handle", async () => {
    const script = {
      prompt: [
        { event: { type: "agent_start" } },
        { event: { type: "turn_start" } },
        { event: { type: "message_update", assistantMessageEvent: { type: "text_delta", delta: "hello from pi" } } },
        { writeSessionFile: "2026-12-02-session.jsonl" },
        { event: { type: "turn_end", message: { role: "assistant", stopReason: "stop", usage: { input: 3, output: 4, totalTokens: 7, cost: { total: 0.001 } } } } },
        { event: { type: "agent_end", messages: [] } },
      ],
    };
    await using h = await runHarness({ defs: [getAgentDef("pi")!], shims: { pi: join(fakes, "pi-rpc-agent.ts") }, env: { FAKE_PI_SCRIPT: JSON.stringify(script) }, timeouts: { cancelGraceMs: 500 } });
    const run = await h.run({ agentId: "pi", message: "hi" });
    expect(agentEvents(run.events).some((e) => e.type === "text_delta" && e.delta === "hello from pi")).toBe(true);
    expect(endOf(run.events).status).toBe("succeeded");
    expect(h.store.agentSessions.get(run.conversationId, "pi")).toEndWith("2026-12-02-session.jsonl");
    expect(processesWithRunCookie(run.runId)).toEqual([]);
  });
});
