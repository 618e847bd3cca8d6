// Issue #37 on the page: an agent's questions fold into approval items (live and history alike), the count of open
// ones is kept for the tab's title, and a run that ends leaves none open.
import { describe, expect, test } from "bun:test";
import { signal } from "@preact/signals";
import type { AgentEvent } from "../../server/contracts/events.ts";
import type { RunEvent } from "../../server/contracts/runs.ts";
import { runStateFromEvents } from "../../web/state/run-history.ts";
import type { ApprovalItem } from "../../web/state/run-state.ts";
import { followWaitingApprovals, waitingTitle } from "../../web/state/waiting-title.ts";

let id = 0;
const agent = (event: AgentEvent): RunEvent => ({ id: ++id, ts: id, type: "agent", event }) as RunEvent;
const ask = (approvalId: string, title: string): RunEvent =>
  agent({ type: "approval_request", approvalId, toolName: "Bash", kind: "command", title, input: { command: title }, options: ["allow_once", "allow_run", "deny"] });
const start: RunEvent = { id: ++id, ts: 1, type: "start", agentId: "claude", model: null, attemptIndex: 0 } as unknown as RunEvent;
const end = (status: "succeeded" | "canceled"): RunEvent => ({ id: ++id, ts: 99, type: "end", status, reason: status, code: 0, signal: null, files: [], durationMs: 5 }) as unknown as RunEvent;
const approvals = (events: RunEvent[]) => runStateFromEvents("run_1", events).items.filter((item): item is ApprovalItem => item.kind === "approval");

describe("approval items", () => {
  test("a question is an open item; its answer says what and by whom; the open count follows", () => {
    const events = [start, ask("a1", "rm -rf build"), ask("a2", "npm test")];
    expect(runStateFromEvents("run_1", events).openApprovals).toBe(2);
    const answered = [...events, agent({ type: "approval_resolved", approvalId: "a1", decision: "deny", by: "user" })];
    const state = runStateFromEvents("run_1", answered);
    expect(state.openApprovals).toBe(1);
    expect(approvals(answered).map((a) => [a.approvalId, a.runId, a.title, a.decision, a.by, a.closed])).toEqual([
      ["a1", "run_1", "rm -rf build", "deny", "user", undefined],
      ["a2", "run_1", "npm test", undefined, undefined, undefined],
    ]);
    // An answer to a question it never saw, or a second answer, changes nothing.
    expect(runStateFromEvents("run_1", [...answered, agent({ type: "approval_resolved", approvalId: "zz", decision: "allow_once", by: "user" })]).openApprovals).toBe(1);
    expect(runStateFromEvents("run_1", [...answered, agent({ type: "approval_resolved", approvalId: "a1", decision: "deny", by: "timeout" })]).openApprovals).toBe(1);
  });

  test("an agent's questions (AskUserQuestion) fold with their questions, and their answers once given", () => {
    const questions = [{ question: "Which database?", multiSelect: false, options: [{ label: "Postgres" }, { label: "SQLite" }] }];
    const asked = agent({ type: "approval_request", approvalId: "q1", toolName: "AskUserQuestion", kind: "question", title: "Which database?", input: { questions }, options: ["allow_once", "deny"], questions });
    const open = approvals([start, asked])[0]!;
    expect([open.approvalKind, open.options, open.questions]).toEqual(["question", ["allow_once", "deny"], questions]);
    const answers = { "Which database?": "SQLite" };
    const answered = approvals([start, asked, agent({ type: "approval_resolved", approvalId: "q1", decision: "allow_once", by: "user", answers })])[0]!;
    expect([answered.decision, answered.answers]).toEqual(["allow_once", answers]);
  });

  test("the end of a run closes what is still open (an od that stopped never answered it)", () => {
    const state = runStateFromEvents("run_1", [start, ask("a1", "npm test"), end("canceled")]);
    expect(state.openApprovals).toBe(0);
    const closed = approvals([start, ask("a1", "npm test"), end("canceled")])[0]!;
    expect([closed.closed, closed.decision]).toEqual([true, undefined]);
  });

  test("the tab's title says how many answers are awaited, notifies only a hidden tab of a new one, and comes back", () => {
    expect(waitingTitle("od", 0)).toBe("od");
    expect(waitingTitle("od", 1)).toBe("(1) Waiting for your answer — od");
    expect(waitingTitle("od", 3)).toBe("(3) Waiting for your answers — od");
    const waiting = signal(0);
    const tab = { title: "od", hidden: false };
    const notes: string[] = [];
    const stop = followWaitingApprovals(waiting, tab, (text) => notes.push(text));
    waiting.value = 1;
    expect(tab.title).toBe("(1) Waiting for your answer — od");
    expect(notes).toEqual([]);
    tab.hidden = true;
    waiting.value = 2;
    expect(notes).toHaveLength(1);
    waiting.value = 1; // one answered: nothing new to say
    expect(notes).toHaveLength(1);
    waiting.value = 0;
    expect(tab.title).toBe("od");
    waiting.value = 1;
    stop();
    expect(tab.title).toBe("od");
  });
});

test("a notice (a project's MCP servers left out until approved) is a warning for the person, not an info line", () => {
  const notice = { id: ++id, ts: id, type: "notice", kind: "mcp_consent", message: "this project's own MCP servers (evil) were not started" } as RunEvent;
  const diagnostic = { id: ++id, ts: id, type: "diagnostic", kind: "watchdog", message: "a detail" } as RunEvent;
  const items = runStateFromEvents("run_1", [start, notice, diagnostic]).items.filter((item) => item.kind === "notice");
  expect(items.map((item) => item.kind === "notice" && [item.level, item.code, item.message])).toEqual([
    ["warning", "mcp_consent", "this project's own MCP servers (evil) were not started"],
    ["info", "watchdog", "a detail"],
  ]);
});
