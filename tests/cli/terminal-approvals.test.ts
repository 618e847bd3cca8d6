// Issue #37: `od run --permission-mode ask` asks each request on the terminal (y / a / n + reason).
import { describe, expect, test } from "bun:test";
import { askOnTerminal, lineReader, NO_TERMINAL_DENIAL, terminalApprovals, type ApprovalRequest } from "../../server/cli/terminal-approvals.ts";

const request = (approvalId = "appr_1"): ApprovalRequest => ({
  type: "approval_request",
  approvalId,
  toolName: "Bash",
  kind: "command",
  title: "rm -rf build",
  input: { command: "rm -rf build" },
  options: ["allow_once", "allow_run", "deny"],
});

async function* chunks(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield new TextEncoder().encode(part);
}

describe("terminal approvals", () => {
  test("lines are read across chunk boundaries, CRLF included, and the end of input is undefined", async () => {
    const read = lineReader(chunks("y\r", "\nno", "pe\nlast"));
    expect([await read(), await read(), await read(), await read()]).toEqual(["y", "nope", "last", undefined]);
  });

  test("y allows once, a allows for the run, n asks a reason; anything else asks again", async () => {
    let shown = "";
    const write = (text: string) => void (shown += text);
    expect(await askOnTerminal(request(), lineReader(chunks("y\n")), write)).toEqual({ decision: "allow_once" });
    expect(await askOnTerminal(request(), lineReader(chunks("maybe\nA\n")), write)).toEqual({ decision: "allow_run" });
    expect(await askOnTerminal(request(), lineReader(chunks("n\nuse make clean\n")), write)).toEqual({ decision: "deny", message: "use make clean" });
    expect(await askOnTerminal(request(), lineReader(chunks("n\n\n")), write)).toEqual({ decision: "deny" });
    expect(await askOnTerminal(request(), lineReader(chunks("")), write)).toEqual({ decision: "deny", message: NO_TERMINAL_DENIAL });
    expect(shown).toContain("od: Bash wants to run a command: rm -rf build");
    expect(shown).toContain("[y] once, [a] for this run, [n] deny");
  });

  test("requests are asked one at a time, in order, and each answer goes to the run", async () => {
    const answers: unknown[] = [];
    const approve = terminalApprovals({ readLine: lineReader(chunks("y\nn\nno thanks\n")), stderr: () => {}, answer: (...args) => (answers.push(args), "answered") });
    approve(request("appr_1"));
    approve(request("appr_2"));
    for (let i = 0; i < 50 && answers.length < 2; i++) await new Promise((r) => setTimeout(r, 5));
    expect(answers).toEqual([
      ["appr_1", "allow_once", undefined],
      ["appr_2", "deny", "no thanks"],
    ]);
  });

  test("without a terminal each request is denied at once and stderr says why", () => {
    const answers: unknown[] = [];
    let err = "";
    terminalApprovals({ stderr: (text) => void (err += text), answer: (...args) => (answers.push(args), "answered") })(request());
    expect(answers).toEqual([["appr_1", "deny", NO_TERMINAL_DENIAL]]);
    expect(err).toContain("no terminal to ask on");
  });
  test("a question: an option by number (several where it takes several), or the person's own words; empty skips it", async () => {
    const question: ApprovalRequest = {
      type: "approval_request",
      approvalId: "appr_q",
      toolName: "AskUserQuestion",
      kind: "question",
      title: "3 questions",
      input: {},
      options: ["allow_once", "deny"],
      questions: [
        { question: "Which database?", header: "DB", multiSelect: false, options: [{ label: "Postgres", description: "relational" }, { label: "SQLite" }] },
        { question: "Which extras?", multiSelect: true, options: [{ label: "Auth" }, { label: "Billing" }] },
        { question: "Anything else?", multiSelect: false, options: [] },
      ],
    };
    let shown = "";
    const write = (text: string) => void (shown += text);
    expect(await askOnTerminal(question, lineReader(chunks("2\n1, 2\n\n")), write)).toEqual({ decision: "allow_once", answers: { "Which database?": "SQLite", "Which extras?": "Auth, Billing" } });
    expect(await askOnTerminal(question, lineReader(chunks("MySQL please\n3\nno\n")), write)).toEqual({
      decision: "allow_once",
      answers: { "Which database?": "MySQL please", "Which extras?": "3", "Anything else?": "no" },
    });
    expect(await askOnTerminal(question, lineReader(chunks("\n\n\n")), write)).toEqual({ decision: "deny" });
    expect(shown).toContain("od: AskUserQuestion asks you:");
    expect(shown).toContain("[DB] Which database?\n  1) Postgres — relational\n  2) SQLite\n");
  });
});
