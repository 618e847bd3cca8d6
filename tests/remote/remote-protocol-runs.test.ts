// Issue #21: protocol transports (ACP, pi rpc) speak over the ssh pipe exactly as over a local child's stdio.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
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

async function remoteProtocolHarness(id: string, bin: string, fake: string, scriptVar: string, script: unknown) {
  const h = await runHarness({
    defs: [getAgentDef(id) as RuntimeAgentDef],
    shims: { [bin]: join(fakes, fake) },
    timeouts: { cancelGraceMs: 500 },
    projectPath: (dir) => `ssh://${SSH_TEST_HOST}${dir}`,
    remote: { env: { ...process.env, ...sshd.env }, controlDir: sshd.controlDir },
  });
  h.store.appConfig.update({ agentCliEnv: { [id]: { PATH: `${h.binDir}:/usr/bin:/bin`, [scriptVar]: JSON.stringify(script) } } });
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
});
