// Issue #37: one owner of a run's approval requests (ask, answer, allow_run memory, timeout, cancel).
import { describe, expect, test } from "bun:test";
import type { AgentEvent } from "../../server/contracts/events.ts";
import type { ApprovalQuestion } from "../../server/runtimes/approval-channel.ts";
import { READ_ONLY_REFUSAL, RunApprovals } from "../../server/runs/approvals.ts";

const write: ApprovalQuestion = { toolName: "Write", kind: "edit", title: "Write hello.txt", input: { file_path: "hello.txt" } };
const npmTest: ApprovalQuestion = { toolName: "Bash", kind: "command", title: "npm test -- -u", input: { command: "npm test -- -u" }, commandPrefix: "npm test" };

function setup(mode: "ask" | "read-only" = "ask", timeoutMs = 60_000) {
  const events: AgentEvent[] = [];
  return { events, approvals: new RunApprovals({ mode, timeoutMs, emit: (event) => events.push(event) }) };
}

function requestIdOf(events: AgentEvent[], index = 0): string {
  const requests = events.filter((event) => event.type === "approval_request");
  const request = requests[index];
  if (!request || request.type !== "approval_request") throw new Error("no approval_request");
  return request.approvalId;
}

describe("RunApprovals", () => {
  test("a question becomes an approval_request, waits, and a person's answer resolves it", async () => {
    const { events, approvals } = setup();
    const answer = approvals.ask(write);
    expect(events).toEqual([
      { type: "approval_request", approvalId: expect.any(String), toolName: "Write", kind: "edit", title: "Write hello.txt", input: { file_path: "hello.txt" }, options: ["allow_once", "allow_run", "deny"] },
    ]);
    const id = requestIdOf(events);
    expect(approvals.pending().map((p) => p.approvalId)).toEqual([id]);
    expect(approvals.answer(id, "allow_once")).toBe("answered");
    expect(await answer).toEqual({ decision: "allow_once" });
    expect(events[1]).toEqual({ type: "approval_resolved", approvalId: id, decision: "allow_once", by: "user" });
    expect(approvals.pending()).toEqual([]);
  });

  test("a second answer is refused as already answered; an unknown id as unknown", async () => {
    const { events, approvals } = setup();
    const answer = approvals.ask(write);
    const id = requestIdOf(events);
    approvals.answer(id, "deny", "not in this folder");
    expect(await answer).toEqual({ decision: "deny", message: "not in this folder" });
    expect(approvals.answer(id, "allow_once")).toBe("already_answered");
    expect(approvals.answer("appr_nope", "allow_once")).toBe("unknown");
  });

  test("a deny without a message tells the agent the user denied it", async () => {
    const { events, approvals } = setup();
    const answer = approvals.ask(write);
    approvals.answer(requestIdOf(events), "deny");
    expect((await answer).message).toBe("The user denied this tool call.");
  });

  test("allow_run allows that tool for the rest of the run without asking again", async () => {
    const { events, approvals } = setup();
    const first = approvals.ask(write);
    approvals.answer(requestIdOf(events), "allow_run");
    await first;
    const count = events.length;
    expect(await approvals.ask({ ...write, title: "Write other.txt" })).toEqual({ decision: "allow_run" });
    expect(events.length).toBe(count);
  });

  test("allow_run of a command allows its prefix only", async () => {
    const { events, approvals } = setup();
    const first = approvals.ask(npmTest);
    approvals.answer(requestIdOf(events), "allow_run");
    await first;
    expect(await approvals.ask({ ...npmTest, title: "npm test" })).toEqual({ decision: "allow_run" });
    void approvals.ask({ ...npmTest, title: "npm publish", commandPrefix: "npm publish" });
    expect(approvals.pending().map((p) => p.title)).toEqual(["npm publish"]);
    approvals.close();
  });

  test("an unanswered request is denied by its timeout", async () => {
    const { events, approvals } = setup("ask", 30);
    const answer = await approvals.ask(write);
    expect(answer.decision).toBe("deny");
    expect(answer.message).toContain("in time");
    expect(events[1]).toEqual({ type: "approval_resolved", approvalId: requestIdOf(events), decision: "deny", by: "timeout" });
    expect(approvals.pending()).toEqual([]);
  });

  test("close denies every pending request by cancel, and every later one at once", async () => {
    const { events, approvals } = setup();
    const a = approvals.ask(write);
    const b = approvals.ask(npmTest);
    approvals.close();
    expect((await a).decision).toBe("deny");
    expect((await b).decision).toBe("deny");
    expect(events.filter((e) => e.type === "approval_resolved").map((e) => e.type === "approval_resolved" && e.by)).toEqual(["cancel", "cancel"]);
    expect((await approvals.ask(write)).decision).toBe("deny");
    expect(events.filter((e) => e.type === "approval_request").length).toBe(2);
  });

  test("read-only allows reads and refuses the rest without asking anyone", async () => {
    const { events, approvals } = setup("read-only");
    expect(await approvals.ask({ toolName: "Read", kind: "read", title: "Read a.txt", input: {} })).toEqual({ decision: "allow_once" });
    expect(await approvals.ask(write)).toEqual({ decision: "deny", message: READ_ONLY_REFUSAL });
    expect(events).toEqual([]);
  });
});
