// Issue #37: an ACP agent's session/request_permission answered by a person (a run in ask / read-only mode),
// against the fake ACP agent's gated write (the file is written only when an allowing option is selected).
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { startAcpTransport } from "../../../server/runtimes/protocols/acp/index.ts";
import type { ApprovalAnswer, ApprovalQuestion } from "../../../server/runtimes/approval-channel.ts";
import { RunApprovals } from "../../../server/runs/approvals.ts";
import { runFake, type FakeRun } from "../../support/protocol-agents.ts";

const runs: FakeRun[] = [];
afterEach(async () => {
  for (const run of runs.splice(0)) await run.cleanup();
});

const gatedWrite = { gatedWrite: { toolCallId: "w1", path: "index.html", content: "<p>hi</p>" } };
const script = { prompt: [gatedWrite, { result: { stopReason: "end_turn" } }] };

/** Answers every question with `answer`, remembering the questions. */
function answering(answer: ApprovalAnswer) {
  const questions: ApprovalQuestion[] = [];
  return { questions, askApproval: async (question: ApprovalQuestion) => (questions.push(question), answer) };
}

async function acp(askApproval: (question: ApprovalQuestion) => Promise<ApprovalAnswer>): Promise<FakeRun> {
  const run = await runFake("acp-agent", script, startAcpTransport, { askApproval });
  runs.push(run);
  return run;
}

const selected = (run: FakeRun) =>
  run.ledger().flatMap((frame) => {
    const outcome = (frame.result as { outcome?: { optionId?: string } } | undefined)?.outcome;
    return outcome?.optionId ? [outcome.optionId] : [];
  });

describe("ACP permission requests in ask mode", () => {
  test("the question names the edit; allow_once selects the allow-once option and the file is written", async () => {
    const person = answering({ decision: "allow_once" });
    const run = await acp(person.askApproval);
    expect(await run.session.result).toMatchObject({ status: "completed" });
    expect(person.questions).toEqual([expect.objectContaining({ toolName: "edit", kind: "edit", title: "Writing to index.html" })]);
    expect(selected(run)).toEqual(["proceed_once"]);
    expect(existsSync(join(run.dir, "index.html"))).toBe(true);
  });

  test("allow_run selects allow-always", async () => {
    const run = await acp(answering({ decision: "allow_run" }).askApproval);
    await run.session.result;
    expect(selected(run)).toEqual(["proceed_always"]);
  });

  test("deny selects the reject option: no file, and the turn still completes", async () => {
    const run = await acp(answering({ decision: "deny", message: "no" }).askApproval);
    expect(await run.session.result).toMatchObject({ status: "completed" });
    expect(selected(run)).toEqual(["cancel"]);
    expect(existsSync(join(run.dir, "index.html"))).toBe(false);
    expect((await run.done).some((event) => event.type === "error")).toBe(false);
  });

  test("read-only: the write is rejected without asking anyone", async () => {
    const events: unknown[] = [];
    const approvals = new RunApprovals({ mode: "read-only", timeoutMs: 60_000, emit: (event) => events.push(event) });
    const run = await acp((question) => approvals.ask(question));
    expect(await run.session.result).toMatchObject({ status: "completed" });
    expect(selected(run)).toEqual(["cancel"]);
    expect(existsSync(join(run.dir, "index.html"))).toBe(false);
    expect(events).toEqual([]);
  });
});

describe("ACP approval questions", () => {
  test("a tool call without a kind (claude-code-acp) is classified by the tool its title names", async () => {
    const { acpApprovalQuestion } = await import("../../../server/runtimes/protocols/acp/ask-permission.ts");
    const params = { toolCall: { toolCallId: "t1", title: "Write /p/a.txt", rawInput: { file_path: "/p/a.txt", content: "x" } } };
    expect(acpApprovalQuestion(params, "/p")).toMatchObject({ kind: "edit", title: "Write /p/a.txt" });
    const command = { toolCall: { toolCallId: "t2", kind: "execute", title: "`npm test`", rawInput: { command: "npm test" } } };
    expect(acpApprovalQuestion(command, "/p")).toMatchObject({ kind: "command", title: "npm test", commandPrefix: "npm test" });
  });
});

describe("an ACP agent that acts without asking", () => {
  const toolCall = { toolCallId: "w9", title: "Writing to quiet.txt", kind: "edit", locations: [{ path: "/tmp/quiet.txt" }] };
  const unasked = {
    prompt: [
      { update: { sessionUpdate: "tool_call", status: "pending", rawInput: { file_path: "/tmp/quiet.txt" }, ...toolCall } },
      { update: { sessionUpdate: "tool_call_update", status: "completed", content: [{ type: "content", content: { type: "text", text: "Wrote quiet.txt" } }], ...toolCall } },
      { result: { stopReason: "end_turn" } },
    ],
  };

  test("in an ask run its write is a visible error and the run fails (never a silent bypass)", async () => {
    const run = await runFake("acp-agent", unasked, startAcpTransport, { askApproval: answering({ decision: "allow_once" }).askApproval });
    runs.push(run);
    const result = await run.session.result;
    expect(result.status).toBe("failed");
    expect(result.error).toMatchObject({ code: "PERMISSION_MODE_NOT_HONOURED", retryable: false });
    expect((await run.done).filter((event) => event.type === "error").map((event) => event.type === "error" && event.code)).toEqual(["PERMISSION_MODE_NOT_HONOURED", "PERMISSION_MODE_NOT_HONOURED"]);
  });

  test("in a bypass run the same turn completes", async () => {
    const run = await runFake("acp-agent", unasked, startAcpTransport, {});
    runs.push(run);
    expect((await run.session.result).status).toBe("completed");
  });
});

describe("an agent whose session starts in a mode that acts without asking (codex-acp's auto)", () => {
  const withModes = {
    sessionNew: { result: { sessionId: "s1", modes: { currentModeId: "auto", availableModes: [{ id: "read-only", name: "Read Only" }, { id: "auto", name: "Auto" }, { id: "full-access", name: "Full Access" }] } } },
    prompt: [gatedWrite, { result: { stopReason: "end_turn" } }],
  };
  const setModes = (run: FakeRun) => run.ledger().flatMap((frame) => (frame.method === "session/set_mode" ? [frame.params] : []));

  test("an ask run switches it to the mode that asks before the prompt; the write is then asked", async () => {
    const person = answering({ decision: "allow_once" });
    const run = await runFake("acp-agent", withModes, startAcpTransport, { askApproval: person.askApproval });
    runs.push(run);
    expect((await run.session.result).status).toBe("completed");
    expect(setModes(run)).toEqual([{ sessionId: "s1", modeId: "read-only" }]);
    const frames = run.ledger().map((frame) => frame.method);
    expect(frames.indexOf("session/set_mode")).toBeLessThan(frames.indexOf("session/prompt"));
    expect(person.questions).toHaveLength(1);
  });

  test("a bypass run leaves its mode alone", async () => {
    const run = await runFake("acp-agent", withModes, startAcpTransport, {});
    runs.push(run);
    expect((await run.session.result).status).toBe("completed");
    expect(setModes(run)).toEqual([]);
  });
});

describe("gemini in an untrusted folder, in an ask run", () => {
  test("a person's allow-for-this-run it refuses is said, and its retry goes through as allow-once: the write works", async () => {
    const refusing = (toolCallId: string) => ({ gatedWrite: { toolCallId, path: "index.html", content: "<p>hi</p>", refuse: ["allow_always"] } });
    const person = answering({ decision: "allow_run" });
    const run = await runFake("acp-agent", { prompt: [refusing("w1"), refusing("w2"), { result: { stopReason: "end_turn" } }] }, startAcpTransport, { askApproval: person.askApproval });
    runs.push(run);
    expect((await run.session.result).status).toBe("completed");
    expect(selected(run)).toEqual(["proceed_always", "proceed_once"]);
    expect(existsSync(join(run.dir, "index.html"))).toBe(true);
    const errors = (await run.done).filter((event) => event.type === "error");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: "AGENT_PERMISSION_REFUSED", message: expect.stringContaining('choose "Trust folder"') });
  });
});
