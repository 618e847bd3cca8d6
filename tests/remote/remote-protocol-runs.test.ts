// Issue #21: protocol transports (ACP, pi rpc, codex app-server) speak over the ssh pipe exactly as over a local
// child's stdio.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";
import { agentEvents, endOf, processesWithRunCookie, runHarness } from "../support/fake-agents.ts";
import { startTestSshd, SSH_TEST_HOST, type TestSshd } from "../support/sshd.ts";

const fakes = join(import.meta.dir, "..", "fakes");
const update = (u: Record<string, unknown>) => ({ update: u });

let sshd: TestSshd;
beforeAll(async () => {
  sshd = await startTestSshd();
});
afterAll(() => sshd?.close());

async function remoteProtocolHarness(id: string, bin: string, fake: string, scriptVar: string, script: unknown, ledger?: string) {
  const h = await runHarness({
    defs: [getAgentDef(id) as RuntimeAgentDef],
    shims: { [bin]: join(fakes, fake) },
    timeouts: { cancelGraceMs: 500 },
    projectPath: (dir) => `ssh://${SSH_TEST_HOST}${dir}`,
    remote: { env: { ...process.env, ...sshd.env }, controlDir: sshd.controlDir },
  });
  const withLedger = ledger ? { ...(script as Record<string, unknown>), ledger: join(h.binDir, "..", ledger) } : script;
  h.store.appConfig.update({ agentCliEnv: { [id]: { PATH: `${h.binDir}:/usr/bin:/bin`, [scriptVar]: JSON.stringify(withLedger) } } });
  return h;
}

describe("protocol transports over ssh", () => {
  test("ACP: initialize, session/new, a prompt turn with a tool call and text, over the ssh pipe", async () => {
    const script = {
      initialize: { result: { protocolVersion: 1, agentCapabilities: { loadSession: true }, agentInfo: { name: "fake", version: "1.0.0" } } },
      sessionNew: { result: { sessionId: "acp-remote-1" } },
      prompt: [
        update({ sessionUpdate: "tool_call", toolCallId: "t1", title: "Write hello.txt", kind: "edit", status: "pending", rawInput: { path: "hello.txt", content: "hi" } }),
        update({ sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed", rawOutput: "wrote it" }),
        update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Done remotely" } }),
        { result: { stopReason: "end_turn" } },
      ],
    };
    await using h = await remoteProtocolHarness("kiro", "kiro-cli", "acp-agent.ts", "FAKE_ACP_SCRIPT", script);
    const run = await h.run({ agentId: "kiro", message: "write hello" });
    expect(endOf(run.events).status).toBe("succeeded");
    const events = agentEvents(run.events);
    expect(events.some((e) => e.type === "text_delta" && e.delta === "Done remotely")).toBe(true);
    expect(events.some((e) => e.type === "tool_use" && e.path === "hello.txt")).toBe(true);
    expect(h.store.agentSessions.get(run.conversationId, "kiro")).toBe("acp-remote-1");
    expect(processesWithRunCookie(run.runId)).toEqual([]);
  });

  test("pi rpc: the prompt command and its events over the ssh pipe", async () => {
    const script = {
      prompt: [
        { event: { type: "agent_start" } },
        { event: { type: "turn_start" } },
        { event: { type: "message_update", assistantMessageEvent: { type: "text_delta", delta: "hello from remote pi" } } },
        { event: { type: "turn_end", message: { role: "assistant", stopReason: "stop", usage: { input: 3, output: 4, totalTokens: 7, cost: { total: 0.001 } } } } },
        { event: { type: "agent_end", messages: [] } },
      ],
    };
    await using h = await remoteProtocolHarness("pi", "pi", "pi-rpc-agent.ts", "FAKE_PI_SCRIPT", script);
    const run = await h.run({ agentId: "pi", message: "hi" });
    expect(agentEvents(run.events).some((e) => e.type === "text_delta" && e.delta === "hello from remote pi")).toBe(true);
    expect(endOf(run.events).status).toBe("succeeded");
    expect(processesWithRunCookie(run.runId)).toEqual([]);
  });

  test("a connection lost mid-run: the stored message says the run's reason (REMOTE_CONNECTION_LOST), not pi's view of it", async () => {
    const script = {
      prompt: [
        { event: { type: "agent_start" } },
        { stderr: "\x1b[33mwarning:\x1b[0m something the agent says on stderr\n" },
        { event: { type: "message_update", assistantMessageEvent: { type: "text_delta", delta: "working on it" } } },
        { waitForAbort: true },
      ],
    };
    await using h = await remoteProtocolHarness("pi", "pi", "pi-rpc-agent.ts", "FAKE_PI_SCRIPT", script, "pi-ledger.jsonl");
    const created = await h.service.create({ projectId: h.projectId, agentId: "pi", message: "hi" });
    const ledger = join(h.binDir, "..", "pi-ledger.jsonl");
    const deadline = Date.now() + 60_000;
    while (!(existsSync(ledger) && readFileSync(ledger, "utf8").includes('"prompt"'))) {
      if (Date.now() > deadline) throw new Error("pi never got its prompt");
      await Bun.sleep(25);
    }
    // The local ssh client dies, as a dropped network ends it.
    process.kill(h.service.get(created.runId)!.pid!, "SIGKILL");
    const events = [];
    for await (const event of h.service.events(created.runId)) events.push(event);
    const end = endOf(events);
    expect(end).toMatchObject({ status: "failed", failureDetail: "remote_connection_lost" });
    expect(end.reason).toBe(`the connection to ${SSH_TEST_HOST} was lost (the ssh client was ended by SIGKILL)`);
    const answer = h.store.messages.list(created.conversationId).find((message) => message.runId === created.runId);
    const errors = (answer?.events ?? []).filter((event) => event.type === "error");
    expect(errors).toEqual([{ type: "error", message: end.reason, code: "REMOTE_CONNECTION_LOST" }]);
  }, 90_000);

  test("codex app-server: initialize, thread/start, a turn with a command, a file change and text, over the ssh pipe", async () => {
    const notify = (method: string, params: Record<string, unknown>) => ({ notify: { method, params: { threadId: "thread-fake-1", turnId: "turn-fake-1", ...params } } });
    const change = (path: string, type: string, diff: string) => ({ path, kind: { type }, diff });
    const script = {
      turn: [
        notify("item/started", { item: { type: "commandExecution", id: "c1", command: "ls", status: "inProgress" } }),
        notify("item/completed", { item: { type: "commandExecution", id: "c1", command: "ls", status: "completed", aggregatedOutput: "a.txt\n", exitCode: 0 } }),
        notify("item/completed", { item: { type: "fileChange", id: "p1", status: "completed", changes: [change("$CWD/index.html", "add", "<p>\n")] } }),
        notify("item/agentMessage/delta", { itemId: "m1", delta: "Done " }),
        notify("item/agentMessage/delta", { itemId: "m1", delta: "remotely" }),
        notify("item/completed", { item: { type: "agentMessage", id: "m1", text: "Done remotely" } }),
        notify("thread/tokenUsage/updated", { tokenUsage: { last: { inputTokens: 10, outputTokens: 3, cachedInputTokens: 0, reasoningOutputTokens: 0, totalTokens: 13 } } }),
      ],
    };
    await using h = await remoteProtocolHarness("codex", "codex", "codex-app-server.ts", "FAKE_CODEX_SCRIPT", script, "codex-frames.jsonl");
    // The fake reports the change without making it; a run lists only files that exist after it, so the file the
    // change names is there (as the real CLI would have left it).
    writeFileSync(join(h.projectDir, "index.html"), "<p>\n");
    const run = await h.run({ agentId: "codex", message: "make a page" });
    expect(endOf(run.events)).toMatchObject({ status: "succeeded", files: ["index.html"] });
    const events = agentEvents(run.events);
    expect(events.filter((e) => e.type === "text_delta").map((e) => (e as { delta: string }).delta).join("")).toBe("Done remotely");
    expect(events.filter((e) => e.type === "tool_use").map((e) => [(e as { name: string }).name, (e as { path?: string }).path])).toEqual([
      ["Bash", undefined],
      ["Write", "index.html"],
    ]);
    expect(events.some((e) => e.type === "tool_result" && e.toolUseId === "c1" && e.content === "a.txt\n")).toBe(true);
    expect(h.store.agentSessions.get(run.conversationId, "codex")).toBe("thread-fake-1");
    // The frames the fake got on the remote side: the thread in the remote folder, the prompt in the turn.
    const frames = readFileSync(join(h.binDir, "..", "codex-frames.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line) as { method?: string; params?: Record<string, unknown> });
    expect(frames.find((f) => f.method === "thread/start")?.params).toMatchObject({ cwd: h.projectDir });
    expect(JSON.stringify(frames.find((f) => f.method === "turn/start")?.params)).toContain("make a page");
    expect(processesWithRunCookie(run.runId)).toEqual([]);
  });
});
