import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { AgentEvent } from "../../../server/contracts/events.ts";
import { discoverAcpModels, startAcpTransport } from "../../../server/runtimes/protocols/acp/index.ts";
import type { TransportOptions } from "../../../server/runtimes/protocols/types.ts";
import { runFake, type FakeRun } from "../../support/protocol-agents.ts";
import { poll } from "../../support/protocol-pipes.ts";

const runs: FakeRun[] = [];
afterEach(async () => {
  for (const run of runs.splice(0)) await run.cleanup();
});

async function acp(script: Record<string, unknown>, overrides: Partial<TransportOptions> = {}): Promise<FakeRun> {
  const run = await runFake("acp-agent", script, startAcpTransport, overrides);
  runs.push(run);
  return run;
}

const update = (value: Record<string, unknown>) => ({ update: value });
const text = (value: string) => update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: value } });
const sent = (run: FakeRun, method: string) => run.ledger().filter((frame) => frame.method === method);
const ofType = <T extends AgentEvent["type"]>(events: AgentEvent[], type: T) => events.filter((e) => e.type === type) as Extract<AgentEvent, { type: T }>[];

describe("ACP transport", () => {
  test("happy path: thinking, cumulative text snapshots, usage, params on the wire, stdin closed", async () => {
    const run = await acp(
      {
        prompt: [
          update({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "Let me think" } }),
          text("Hello"),
          text("Hello world"),
          text("Hello world"),
          text("!"),
          { result: { stopReason: "end_turn", usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 } } },
        ],
      },
      {
        imagePaths: ["/tmp/shot.png"],
        mcpServers: [{ name: "files", command: "mcp-files", args: ["--x"], env: { TOKEN_HINT: "v" } }],
      },
    );
    const result = await run.session.result;
    const events = await run.done;
    expect(result).toEqual({ status: "completed", sessionId: "fake-session-1" });
    for (const event of events) AgentEvent.parse(event);
    expect(ofType(events, "text_delta").map((e) => e.delta).join("")).toBe("Hello world!");
    expect(events.filter((e) => e.type.startsWith("thinking"))).toEqual([
      { type: "thinking_start" },
      { type: "thinking_delta", delta: "Let me think" },
      { type: "thinking_end" },
    ]);
    expect(ofType(events, "status").some((e) => e.label === "streaming" && typeof e.ttftMs === "number")).toBe(true);
    expect(ofType(events, "usage")).toEqual([{ type: "usage", stopReason: "end_turn", usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 } }]);
    expect(sent(run, "session/new")[0]?.params).toEqual({
      cwd: run.dir,
      mcpServers: [{ name: "files", command: "mcp-files", args: ["--x"], env: [{ name: "TOKEN_HINT", value: "v" }] }],
    });
    expect((sent(run, "session/prompt")[0]?.params as { prompt: unknown }).prompt).toEqual([
      { type: "text", text: "hello" },
      { type: "resource_link", uri: "/tmp/shot.png", name: "shot.png", mimeType: "image/png" },
    ]);
    expect(await run.children[0]!.exited).toEqual({ code: 0, signal: null });
  });

  test("tool call with a permission request settles into one tool_use and one tool_result", async () => {
    const run = await acp({
      prompt: [
        update({ sessionUpdate: "tool_call", toolCallId: "t1", title: "Write", status: "pending", rawInput: {} }),
        update({
          sessionUpdate: "tool_call",
          toolCallId: "t1",
          title: "Write",
          kind: "edit",
          status: "pending",
          rawInput: { file_path: "PLACEHOLDER/index.html", content: "<p>" },
          content: [{ type: "diff", path: "PLACEHOLDER/index.html", oldText: null, newText: "<p>" }],
        }),
        {
          request: {
            method: "session/request_permission",
            params: {
              toolCall: { toolCallId: "t1" },
              options: [
                { optionId: "allow", kind: "allow_once", name: "Allow" },
                { optionId: "always", kind: "allow_always", name: "Always" },
                { optionId: "reject", kind: "reject_once", name: "Reject" },
              ],
            },
          },
          expectOutcome: "selected",
        },
        update({ sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed", content: [{ type: "content", content: { type: "text", text: "written" } }] }),
        text("done"),
        { result: { stopReason: "end_turn" } },
      ],
    });
    expect((await run.session.result).status).toBe("completed");
    const events = await run.done;
    const uses = ofType(events, "tool_use");
    expect(uses).toHaveLength(1);
    expect(uses[0]).toMatchObject({ id: "t1", name: "Write", kind: "file_write" });
    expect(uses[0]?.path).toEndWith("index.html");
    expect(ofType(events, "tool_result")).toEqual([{ type: "tool_result", toolUseId: "t1", content: "written" }]);
    const answer = run.ledger().find((frame) => frame.id === 0 && "result" in frame);
    expect(answer?.result).toEqual({ outcome: { outcome: "selected", optionId: "always" } });
  });

  test("a permission request without an allowing option is a typed fatal failure", async () => {
    const run = await acp({
      prompt: [
        { request: { method: "session/request_permission", params: { options: [{ optionId: "no", kind: "reject_once" }] } } },
        { waitForCancel: true },
      ],
    });
    const result = await run.session.result;
    expect(result.status).toBe("failed");
    expect(result.error?.code).toBe("AGENT_PERMISSION_UNANSWERABLE");
    expect(ofType(await run.done, "error")[0]).toMatchObject({ code: "AGENT_PERMISSION_UNANSWERABLE", terminal: true });
  });

  describe("permission answers the agent refuses (gemini in an untrusted folder)", () => {
    const answers = (run: FakeRun) =>
      run.ledger().flatMap((frame) => {
        const outcome = (frame.result as { outcome?: { optionId?: string } } | undefined)?.outcome;
        return outcome?.optionId ? [outcome.optionId] : [];
      });
    const write = (toolCallId: string, refuse: string[]) => ({ gatedWrite: { toolCallId, path: "index.html", content: "<p>hi</p>", refuse } });

    test("a refused allow-always is a visible error, and the retry is answered allow-once and runs", async () => {
      const run = await acp({ prompt: [write("w1", ["allow_always"]), write("w2", ["allow_always"]), text("done"), { result: { stopReason: "end_turn" } }] });
      expect(await run.session.result).toEqual({ status: "completed", sessionId: "fake-session-1" });
      expect(answers(run)).toEqual(["proceed_always", "proceed_once"]);
      expect(readFileSync(join(run.dir, "index.html"), "utf8")).toBe("<p>hi</p>");
      const errors = ofType(await run.done, "error");
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ code: "AGENT_PERMISSION_REFUSED" });
      expect(errors[0]?.terminal).toBeUndefined();
      expect(errors[0]?.message).toContain("Cannot enable privileged approval modes in an untrusted folder.");
      // The one step that lets it act there, as Gemini CLI documents it.
      expect(errors[0]?.message).toContain('run the agent once in this project\'s folder and choose "Trust folder"');
    });

    test("a tool the agent refuses whatever od answers fails the run instead of a silent success", async () => {
      const refuseAll = ["allow_always", "allow_once"];
      const run = await acp({ prompt: [write("w1", refuseAll), write("w2", refuseAll), text("I could not write the file."), { result: { stopReason: "end_turn" } }] });
      const result = await run.session.result;
      expect(result.status).toBe("failed");
      expect(result.error).toMatchObject({ code: "AGENT_PERMISSION_REFUSED", retryable: false });
      expect(result.error?.message).toContain("index.html");
      expect(existsSync(join(run.dir, "index.html"))).toBe(false);
      const errors = ofType(await run.done, "error");
      expect(errors.map((e) => e.terminal ?? false)).toEqual([false, false, true]);
      expect(ofType(await run.done, "tool_result").every((e) => e.isError === true)).toBe(true);
    });

    test("an approved tool that fails for its own reasons is no refusal", async () => {
      const run = await acp({
        prompt: [
          update({ sessionUpdate: "tool_call", toolCallId: "b1", title: "Bash", kind: "execute", status: "pending", rawInput: { command: "false" } }),
          { request: { method: "session/request_permission", params: { toolCall: { toolCallId: "b1" }, options: [{ optionId: "always", kind: "allow_always" }] } } },
          update({ sessionUpdate: "tool_call_update", toolCallId: "b1", status: "failed", content: [{ type: "content", content: { type: "text", text: "exit code 1: Permission denied" } }] }),
          { result: { stopReason: "end_turn" } },
        ],
      });
      expect((await run.session.result).status).toBe("completed");
      expect(ofType(await run.done, "error")).toEqual([]);
    });
  });

  test("unknown update kinds become status events; bookkeeping kinds are dropped; unknown agent requests get -32601", async () => {
    const run = await acp({
      prompt: [
        update({ sessionUpdate: "plan", entries: [{ content: "step", status: "pending" }] }),
        update({ sessionUpdate: "brand_new_kind", foo: 1 }),
        update({ sessionUpdate: "available_commands_update", availableCommands: [] }),
        update({ sessionUpdate: "usage_update", used: 1 }),
        { request: { method: "fs/read_text_file", params: { path: "/etc/hosts" } } },
        { result: { stopReason: "end_turn" } },
      ],
    });
    await run.session.result;
    const statuses = ofType(await run.done, "status").map((e) => e.label);
    expect(statuses).toContain("plan");
    expect(statuses).toContain("brand_new_kind");
    expect(statuses).not.toContain("available_commands_update");
    expect(statuses).not.toContain("usage_update");
    const refusal = run.ledger().find((frame) => frame.id === 0 && "error" in frame);
    expect((refusal?.error as { code: number }).code).toBe(-32601);
  });

  test("frames written byte by byte and malformed lines are tolerated", async () => {
    const run = await acp({
      prompt: [
        { raw: "this is not json\n" },
        { raw: "[1,2,3]\n" },
        { bytewise: { jsonrpc: "2.0", method: "session/update", params: { sessionId: "fake-session-1", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "héllo ✓" } } } } },
        { result: { stopReason: "end_turn" } },
      ],
    });
    expect((await run.session.result).status).toBe("completed");
    const events = await run.done;
    expect(ofType(events, "text_delta").map((e) => e.delta).join("")).toBe("héllo ✓");
    expect(ofType(events, "raw").map((e) => e.line)).toEqual(["this is not json", "[1,2,3]"]);
  });

  describe("model selection", () => {
    test("uses session/set_config_option when the session offers a model option", async () => {
      const run = await acp(
        { sessionNew: { result: { sessionId: "s", configOptions: [{ id: "model", type: "select", currentValue: "a", options: [{ value: "a" }, { value: "b" }] }] } } },
        { model: "b" },
      );
      await run.session.result;
      expect(sent(run, "session/set_config_option")[0]?.params).toEqual({ sessionId: "s", configId: "model", value: "b" });
      expect(sent(run, "session/set_model")).toHaveLength(0);
    });

    test("falls back to session/set_model, and to the default model with a warning when that fails", async () => {
      const run = await acp({ setModel: { error: { code: -32602, message: "unknown model" } } }, { model: "nope" });
      expect((await run.session.result).status).toBe("completed");
      expect(sent(run, "session/set_model")[0]?.params).toEqual({ sessionId: "fake-session-1", modelId: "nope" });
      const warning = ofType(await run.done, "status").find((e) => e.label === "warning");
      expect(warning?.detail).toContain("unknown model");
    });

    test("the default model sends no selection at all", async () => {
      const run = await acp({}, { model: "default" });
      await run.session.result;
      expect(sent(run, "session/set_model")).toHaveLength(0);
      expect(sent(run, "session/set_config_option")).toHaveLength(0);
    });
  });

  describe("MCP servers", () => {
    const stdio = { name: "local", command: "srv", env: { A: "1" } };
    const http = { name: "remote", type: "http" as const, url: "http://127.0.0.1:9/mcp" };

    test("map env format, and stdio servers withheld from agent versions at or past the cut-off", async () => {
      const mapped = await acp({}, { mcpServers: [stdio], def: { acpMcpEnvFormat: "map" } });
      await mapped.session.result;
      expect((sent(mapped, "session/new")[0]?.params as { mcpServers: unknown[] }).mcpServers).toEqual([{ name: "local", command: "srv", args: [], env: { A: "1" } }]);

      const withheld = await acp(
        { initialize: { result: { protocolVersion: 1, agentInfo: { version: "0.37.1" }, agentCapabilities: {} } } },
        { mcpServers: [stdio, http], def: { acpStdioMcpRemovedInVersion: "0.37.0" } },
      );
      await withheld.session.result;
      expect((sent(withheld, "session/new")[0]?.params as { mcpServers: unknown[] }).mcpServers).toEqual([
        { type: "http", name: "remote", url: "http://127.0.0.1:9/mcp", headers: [] },
      ]);
      expect(ofType(await withheld.done, "status").some((e) => e.label === "warning" && e.detail?.includes("local"))).toBe(true);
    });
  });

  describe("resume", () => {
    test("session/load when the def resumes via ACP load and the agent can; replayed history is not re-emitted", async () => {
      const run = await acp({ prompt: [text("new answer"), { result: { stopReason: "end_turn" } }] }, { resumeSessionId: "old-1", def: { resumesSessionViaAcpLoad: true } });
      expect(await run.session.result).toEqual({ status: "completed", sessionId: "old-1" });
      expect(sent(run, "session/load")[0]?.params).toMatchObject({ sessionId: "old-1", cwd: run.dir });
      expect(sent(run, "session/new")).toHaveLength(0);
      expect(ofType(await run.done, "text_delta").map((e) => e.delta).join("")).toBe("new answer");
    });

    test("a failed session/load is a retryable resume failure", async () => {
      const run = await acp({ sessionLoad: { error: { code: -32600, message: "session gone" } } }, { resumeSessionId: "old-1", def: { resumesSessionViaAcpLoad: true } });
      const result = await run.session.result;
      expect(result.error).toMatchObject({ code: "AGENT_SESSION_RESUME_FAILED", retryable: true });
    });

    test("an agent without loadSession gets session/new and a warning", async () => {
      const run = await acp({ initialize: { result: { protocolVersion: 1, agentCapabilities: {} } } }, { resumeSessionId: "old-1", def: { resumesSessionViaAcpLoad: true } });
      await run.session.result;
      expect(sent(run, "session/new")).toHaveLength(1);
      expect(sent(run, "session/load")).toHaveLength(0);
    });
  });

  test("cancel mid-turn sends session/cancel, ends cancelled, and the agent process goes away", async () => {
    const run = await acp({ prompt: [text("partial"), { waitForCancel: true }, { result: { stopReason: "cancelled" } }] });
    await poll(() => run.events.some((e) => e.type === "text_delta"));
    await run.session.cancel();
    expect((await run.session.result).status).toBe("cancelled");
    expect(sent(run, "session/cancel")[0]?.params).toEqual({ sessionId: "fake-session-1" });
    expect((await run.children[0]!.exited).code).toBe(0);
  });

  test("an agent crash mid-turn fails the run and closes open tool rows as errors", async () => {
    const run = await acp({
      prompt: [update({ sessionUpdate: "tool_call", toolCallId: "t9", title: "Bash", kind: "execute", status: "in_progress", rawInput: { command: "ls" } }), { exit: 3 }],
    });
    const result = await run.session.result;
    expect(result.error?.code).toBe("AGENT_PROTOCOL_CLOSED");
    const events = await run.done;
    expect(ofType(events, "tool_use")[0]).toMatchObject({ id: "t9", kind: "command" });
    expect(ofType(events, "tool_result")[0]).toMatchObject({ toolUseId: "t9", isError: true });
  });

  test("a turn_end update completes the prompt when the def says so", async () => {
    const run = await acp({ prompt: [text("bye"), update({ sessionUpdate: "turn_end" }), { waitForCancel: true }] }, { def: { acpTurnEndCompletesPrompt: true } });
    expect((await run.session.result).status).toBe("completed");
  });

  test("the stage watchdog fails a silent prompt with a typed timeout", async () => {
    const run = await acp({ prompt: [{ waitForCancel: true }] }, { env: { OD_ACP_STAGE_TIMEOUT_MS: "150" } });
    const result = await run.session.result;
    expect(result.error?.code).toBe("AGENT_STAGE_TIMEOUT");
  });

  test("discoverAcpModels reads the offered models and leaves no process behind", async () => {
    const script = JSON.stringify({
      sessionNew: { result: { sessionId: "s", models: { currentModelId: "m1", availableModels: [{ modelId: "m1", name: "Model one" }, { modelId: "m2", name: "Model two" }] } } },
    });
    const fake = new URL("../../fakes/acp-agent.ts", import.meta.url).pathname;
    const models = await discoverAcpModels({ argv: [process.execPath, fake], env: { ...process.env, FAKE_ACP_SCRIPT: script }, cwd: process.cwd() });
    expect(models).toEqual([
      { id: "m1", label: "Model one", current: true },
      { id: "m2", label: "Model two" },
    ]);
    const hanging = JSON.stringify({ sessionNew: { result: { sessionId: "s" } }, initialize: undefined });
    const started = Date.now();
    const none = await discoverAcpModels({ argv: [process.execPath, "-e", "setInterval(() => {}, 1000)"], env: { ...process.env, FAKE_ACP_SCRIPT: hanging }, cwd: process.cwd(), timeoutMs: 300 });
    expect(none).toBeNull();
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
