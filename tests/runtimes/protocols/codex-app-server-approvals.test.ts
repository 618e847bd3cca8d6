// Issue #37: codex app-server approval requests answered by a person (ask / read-only runs), and the thread policy
// each mode starts with, against the fake codex app-server.
import { afterEach, describe, expect, test } from "bun:test";
import { startCodexAppServerTransport } from "../../../server/runtimes/protocols/codex-app-server/index.ts";
import type { ApprovalAnswer, ApprovalQuestion } from "../../../server/runtimes/approval-channel.ts";
import type { TransportOptions } from "../../../server/runtimes/protocols/types.ts";
import { runFake, type FakeRun } from "../../support/protocol-agents.ts";

const runs: FakeRun[] = [];
afterEach(async () => {
  for (const run of runs.splice(0)) await run.cleanup();
});

const fileChangeStarted = {
  method: "item/started",
  params: { threadId: "thread-fake-1", item: { type: "fileChange", id: "f1", status: "inProgress", changes: [{ path: "/p/hello.txt", kind: { type: "add" }, diff: "" }] } },
};
const turn = [
  { request: { method: "item/commandExecution/requestApproval", params: { threadId: "thread-fake-1", turnId: "turn-fake-1", itemId: "c1", command: "npm test -- -u", cwd: "/p" } } },
  // As codex 0.171 sends it: the request names only the item, whose files came with item/started.
  { notify: fileChangeStarted },
  { request: { method: "item/fileChange/requestApproval", params: { threadId: "thread-fake-1", turnId: "turn-fake-1", itemId: "f1", reason: null } } },
  { request: { method: "applyPatchApproval", params: { conversationId: "c", callId: "p1", fileChanges: { "/p/a.txt": {} } } } },
];

async function codex(answers: ApprovalAnswer[], overrides: Partial<TransportOptions> = {}) {
  const questions: ApprovalQuestion[] = [];
  const askApproval = async (question: ApprovalQuestion) => (questions.push(question), answers[questions.length - 1] ?? { decision: "deny" as const });
  const run = await runFake("codex-app-server", { turn }, startCodexAppServerTransport, { askApproval, permissionMode: "ask", ...overrides });
  runs.push(run);
  await run.session.result;
  const replies = run.ledger().filter((frame) => frame.method === undefined).map((frame) => frame.result);
  const threadStart = run.ledger().find((frame) => frame.method === "thread/start")?.params as Record<string, unknown>;
  return { questions, replies, threadStart };
}

describe("codex app-server approvals in ask mode", () => {
  test("each request is asked, and each answer goes back in codex's words", async () => {
    const { questions, replies, threadStart } = await codex([{ decision: "allow_once" }, { decision: "deny", message: "no" }, { decision: "allow_run" }], { cwd: "/p" });
    expect(threadStart).toMatchObject({ approvalPolicy: "untrusted", sandbox: "workspace-write" });
    expect(questions).toEqual([
      expect.objectContaining({ toolName: "shell", kind: "command", title: "npm test -- -u", commandPrefix: "npm test" }),
      expect.objectContaining({ toolName: "apply_patch", kind: "edit", title: "hello.txt" }),
      expect.objectContaining({ toolName: "apply_patch", kind: "edit", title: "a.txt" }),
    ]);
    expect(replies).toEqual([{ decision: "accept" }, { decision: "decline" }, { decision: "approved_for_session" }]);
  });

  test("read-only starts the thread in codex's read-only sandbox with no approvals asked for", async () => {
    const { threadStart } = await codex([], { permissionMode: "read-only" });
    expect(threadStart).toMatchObject({ approvalPolicy: "never", sandbox: "read-only" });
  });

  test("bypass keeps the headless policy and accepts by itself", async () => {
    const run = await runFake("codex-app-server", { turn: turn.slice(0, 1) }, startCodexAppServerTransport, {});
    runs.push(run);
    await run.session.result;
    expect(run.ledger().find((frame) => frame.method === "thread/start")?.params).toMatchObject({ approvalPolicy: "never" });
    expect(run.ledger().filter((frame) => frame.method === undefined).map((frame) => frame.result)).toEqual([{ decision: "accept" }]);
  });
});
