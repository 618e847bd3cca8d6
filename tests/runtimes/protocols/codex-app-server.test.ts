import { afterEach, describe, expect, test } from "bun:test";
import { AgentEvent } from "../../../server/contracts/events.ts";
import { serverVersion, startCodexAppServerTransport, supportsPatchStreaming } from "../../../server/runtimes/protocols/codex-app-server/index.ts";
import type { TransportOptions } from "../../../server/runtimes/protocols/types.ts";
import { runFake, type FakeRun } from "../../support/protocol-agents.ts";
import { poll } from "../../support/protocol-pipes.ts";

const runs: FakeRun[] = [];
afterEach(async () => {
  for (const run of runs.splice(0)) await run.cleanup();
});

async function codex(script: Record<string, unknown>, overrides: Partial<TransportOptions> = {}): Promise<FakeRun> {
  const run = await runFake("codex-app-server", script, startCodexAppServerTransport, overrides);
  runs.push(run);
  return run;
}

const notify = (method: string, params: Record<string, unknown>) => ({ notify: { method, params: { threadId: "thread-fake-1", turnId: "turn-fake-1", ...params } } });
const ofType = <T extends AgentEvent["type"]>(events: AgentEvent[], type: T) => events.filter((e) => e.type === type) as Extract<AgentEvent, { type: T }>[];
const sent = (run: FakeRun, method: string) => run.ledger().filter((frame) => frame.method === method);
const change = (path: string, type: string, diff = "") => ({ path, kind: { type }, diff });

describe("codex app-server transport", () => {
  test("text, reasoning, a command, a streamed patch preview, usage; frames without the jsonrpc field", async () => {
    const run = await codex({
      turn: [
        notify("item/reasoning/summaryTextDelta", { itemId: "r1", delta: "Planning", summaryIndex: 0 }),
        notify("item/completed", { item: { type: "reasoning", id: "r1", summary: [], content: [] } }),
        notify("item/started", { item: { type: "commandExecution", id: "c1", command: "ls", status: "inProgress" } }),
        notify("item/completed", { item: { type: "commandExecution", id: "c1", command: "ls", status: "completed", aggregatedOutput: "a.txt\n", exitCode: 0 } }),
        notify("item/fileChange/patchUpdated", { itemId: "p1", changes: [change("index.html", "add")] }),
        notify("item/fileChange/patchUpdated", { itemId: "p1", changes: [change("index.html", "add", "<p>\n"), change("style.css", "update")] }),
        notify("item/completed", {
          item: { type: "fileChange", id: "p1", status: "completed", changes: [change("$CWD/index.html", "add", "<p>\n<b>\n"), change("$CWD/style.css", "update", "--- a\n+++ b\n-x\n+y\n+z\n")] },
        }),
        notify("item/agentMessage/delta", { itemId: "m1", delta: "Hel" }),
        notify("item/agentMessage/delta", { itemId: "m1", delta: "lo" }),
        notify("item/completed", { item: { type: "agentMessage", id: "m1", text: "Hello" } }),
        notify("thread/tokenUsage/updated", { tokenUsage: { last: { inputTokens: 10, outputTokens: 3, cachedInputTokens: 2, reasoningOutputTokens: 1, totalTokens: 13 } } }),
        notify("account/rateLimits/updated", {}),
      ],
    });
    const result = await run.session.result;
    const events = await run.done;
    for (const event of events) AgentEvent.parse(event);
    expect(result).toEqual({ status: "completed", sessionId: "thread-fake-1" });
    expect(ofType(events, "text_delta").map((e) => e.delta).join("")).toBe("Hello");
    expect(events.filter((e) => e.type.startsWith("thinking")).map((e) => e.type)).toEqual(["thinking_start", "thinking_delta", "thinking_end"]);
    expect(ofType(events, "tool_use").map((e) => [e.id, e.name, e.kind, e.path])).toEqual([
      ["c1", "Bash", "command", undefined],
      ["p1:index.html", "Write", "file_write", "index.html"],
      ["p1:style.css", "Edit", "file_edit", "style.css"],
    ]);
    expect(ofType(events, "tool_result")).toEqual([
      { type: "tool_result", toolUseId: "c1", content: "a.txt\n", exitCode: 0 },
      { type: "tool_result", toolUseId: "p1:index.html", content: "applied +2 -0" },
      { type: "tool_result", toolUseId: "p1:style.css", content: "applied +2 -1" },
    ]);
    expect(ofType(events, "usage")).toEqual([
      { type: "usage", stopReason: "completed", usage: { input_tokens: 10, output_tokens: 3, cached_read_tokens: 2, thought_tokens: 1, total_tokens: 13 } },
    ]);
    const init = sent(run, "initialize")[0]!;
    expect("jsonrpc" in init).toBe(false);
    expect(init.params).toMatchObject({ clientInfo: { name: "open-design", title: "Open Design" } });
    expect(sent(run, "initialized")).toHaveLength(1);
    expect(sent(run, "thread/start")[0]?.params).toMatchObject({ cwd: run.dir, approvalPolicy: "never", config: { "features.apply_patch_streaming_events": true } });
    expect(sent(run, "turn/start")[0]?.params).toMatchObject({ threadId: "thread-fake-1", input: [{ type: "text", text: "hello", text_elements: [] }] });
    expect((await run.children[0]!.exited).code).toBe(0);
  });

  test("a spawned sub-agent is a task call; its thread's tool calls hang under it, its text and turn end stay out", async () => {
    const child = (method: string, params: Record<string, unknown>) => ({ notify: { method, params: { threadId: "thread-child-1", turnId: "turn-child-1", ...params } } });
    const spawn = { type: "collabAgentToolCall", id: "collab-1", tool: "spawnAgent", senderThreadId: "thread-fake-1", prompt: "Survey the styles", model: null, reasoningEffort: null };
    const run = await codex({
      turn: [
        notify("item/started", { item: { ...spawn, status: "inProgress", receiverThreadIds: ["thread-child-1"], agentsStates: {} } }),
        child("item/started", { item: { type: "commandExecution", id: "c-child", command: "ls styles", status: "inProgress" } }),
        child("item/agentMessage/delta", { itemId: "m-child", delta: "child chatter" }),
        child("item/completed", { item: { type: "commandExecution", id: "c-child", command: "ls styles", status: "failed", aggregatedOutput: "no such dir\n", exitCode: 2 } }),
        child("item/completed", { item: { type: "agentMessage", id: "m-child", text: "child chatter" } }),
        child("turn/completed", { turn: { id: "turn-child-1", status: "completed", error: null, items: [] } }),
        notify("item/completed", {
          item: { ...spawn, status: "completed", receiverThreadIds: ["thread-child-1"], agentsStates: { "thread-child-1": { status: "completed", message: "two stylesheets" } } },
        }),
        notify("item/agentMessage/delta", { itemId: "m1", delta: "Done." }),
      ],
    });
    expect(await run.session.result).toEqual({ status: "completed", sessionId: "thread-fake-1" });
    const events = await run.done;
    for (const event of events) AgentEvent.parse(event);
    expect(ofType(events, "text_delta").map((e) => e.delta).join("")).toBe("Done.");
    expect(ofType(events, "tool_use").map((e) => [e.id, e.name, e.kind, e.parentToolUseId])).toEqual([
      ["collab-1", "spawnAgent", "task", undefined],
      ["c-child", "Bash", "command", "collab-1"],
    ]);
    expect(ofType(events, "tool_result")).toEqual([
      { type: "tool_result", toolUseId: "c-child", content: "no such dir\n", isError: true, exitCode: 2, parentToolUseId: "collab-1" },
      { type: "tool_result", toolUseId: "collab-1", content: "thread-child-1: completed — two stylesheets" },
    ]);
  });

  test("patch streaming stays off for old, prerelease and unknown servers", async () => {
    expect(serverVersion("open-design/0.171.0 (Debian 12; x86_64) xterm")).toEqual({ version: "0.171.0", prerelease: false });
    expect(supportsPatchStreaming("codex_cli_rs/0.123.0 (Linux)")).toBe(true);
    expect(supportsPatchStreaming("codex_cli_rs/0.122.9 (Linux)")).toBe(false);
    expect(supportsPatchStreaming("codex_cli_rs/0.130.0-alpha.1 (Linux)")).toBe(false);
    expect(supportsPatchStreaming(undefined)).toBe(false);
    const run = await codex({ userAgent: "open-design/0.122.0 (x)" });
    await run.session.result;
    expect(sent(run, "thread/start")[0]?.params).not.toHaveProperty("config");
  });

  test("resume: thread/resume with model and effort; an archived thread is unarchived and resumed", async () => {
    const run = await codex(
      { threadResume: [{ error: { code: -32600, message: "thread thread-old is archived" } }, { result: { thread: { id: "thread-old" } } }] },
      { resumeSessionId: "thread-old", model: "gpt-5.5", reasoning: "high", imagePaths: ["/tmp/a.png"] },
    );
    expect(await run.session.result).toEqual({ status: "completed", sessionId: "thread-old" });
    expect(run.ledger().map((f) => f.method).filter(Boolean)).toEqual(["initialize", "initialized", "thread/resume", "thread/unarchive", "thread/resume", "turn/start"]);
    expect(sent(run, "turn/start")[0]?.params).toMatchObject({ model: "gpt-5.5", effort: "high", input: [{ type: "text" }, { type: "localImage", path: "/tmp/a.png" }] });
  });

  test("error notifications carry auth/quota/upstream codes and fail the turn; retried ones are status", async () => {
    const run = await codex({
      turn: [
        notify("error", { error: { message: "reconnecting", codexErrorInfo: null }, willRetry: true }),
        notify("error", { error: { message: "unexpected status 401 Unauthorized", codexErrorInfo: { httpConnectionFailed: { httpStatusCode: 401 } } }, willRetry: false }),
        { complete: "failed", error: { message: "unexpected status 401 Unauthorized" } },
      ],
    });
    const result = await run.session.result;
    expect(result.error).toEqual({ code: "AGENT_AUTH_REQUIRED", message: "unexpected status 401 Unauthorized" });
    expect(ofType(await run.done, "status").some((e) => e.label === "retrying")).toBe(true);
  });

  test("approvals are accepted and other server requests refused with -32601", async () => {
    const run = await codex({
      turn: [
        { request: { method: "item/commandExecution/requestApproval", params: { itemId: "c1" } } },
        { request: { method: "item/tool/requestUserInput", params: {} } },
      ],
    });
    await run.session.result;
    const answers = run.ledger().filter((f) => f.method === undefined);
    expect(answers[0]).toMatchObject({ result: { decision: "accept" } });
    expect((answers[1]?.error as { code: number }).code).toBe(-32601);
  });

  test("cancel sends turn/interrupt and ends cancelled", async () => {
    const run = await codex({ turn: [notify("item/agentMessage/delta", { itemId: "m", delta: "partial" }), { waitForInterrupt: true }] });
    await poll(() => run.events.some((e) => e.type === "text_delta"));
    await run.session.cancel();
    expect((await run.session.result).status).toBe("cancelled");
    expect(sent(run, "turn/interrupt")[0]?.params).toEqual({ threadId: "thread-fake-1", turnId: "turn-fake-1" });
    expect((await run.children[0]!.exited).code).toBe(0);
  });

  test("a crash mid-turn fails the run and settles the open command as an error; malformed lines become raw", async () => {
    const run = await codex({ turn: [{ raw: "{oops\n" }, notify("item/started", { item: { type: "commandExecution", id: "c1", command: "sleep 100" } }), { exit: 1 }] });
    const result = await run.session.result;
    expect(result.error?.code).toBe("AGENT_PROTOCOL_CLOSED");
    const events = await run.done;
    expect(ofType(events, "tool_result")).toEqual([{ type: "tool_result", toolUseId: "c1", content: "", isError: true }]);
    expect(ofType(events, "raw").map((e) => e.line)).toContain("{oops");
  });
});
