// Issue #37: a Claude Code run in ask / read-only mode, end to end against the fake CLI speaking Claude's
// `--permission-prompt-tool stdio` control protocol (real processes, the real run service).
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { AgentEventOf } from "../../server/contracts/events.ts";
import type { RunEvent } from "../../server/contracts/runs.ts";
import { OdError } from "../../server/errors.ts";
import { getAgentDef } from "../../server/runtimes/registry.ts";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";
import { READ_ONLY_REFUSAL } from "../../server/runs/approvals.ts";
import { agentEvents, endOf, runHarness, type RunHarness } from "../support/fake-agents.ts";

const def = (id: string) => getAgentDef(id)! as RuntimeAgentDef;
const textFixture = join(import.meta.dir, "..", "fixtures", "claude", "text.jsonl");

/** The fake asks to write `hello.txt` in the project and writes it only when allowed, then answers as usual. */
async function claudeAsking(env: Record<string, string> = {}): Promise<RunHarness & { target: string }> {
  const h = await runHarness({ defs: [def("claude"), def("deepseek")], shims: { claude: undefined, deepseek: undefined }, env });
  const target = join(h.projectDir, "hello.txt");
  h.script([
    { readLine: true },
    { canUseTool: { tool_name: "Write", input: { file_path: target, content: "hi" }, writeFile: { path: target, content: "hi" } } },
    { outFile: textFixture },
  ]);
  return Object.assign(h, { target });
}

/** Starts a run and reads its events until the first approval request (returned with the run id). */
async function untilApprovalRequest(h: RunHarness, permissionMode: "ask" | "read-only" = "ask") {
  const { runId } = await h.service.create({ projectId: h.projectId, agentId: "claude", message: "write hello.txt", permissionMode });
  const seen: RunEvent[] = [];
  for await (const event of h.service.events(runId)) {
    seen.push(event);
    if (event.type === "agent" && event.event.type === "approval_request") return { runId, request: event.event, lastId: event.id };
    if (event.type === "end") throw new Error(`run ended without asking: ${JSON.stringify(seen.slice(-3))}`);
  }
  throw new Error("event stream closed");
}

async function allEvents(h: RunHarness, runId: string): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of h.service.events(runId)) events.push(event);
  return events;
}

function resolvedOf(events: RunEvent[]): AgentEventOf<"approval_resolved">[] {
  return agentEvents(events).filter((e): e is AgentEventOf<"approval_resolved"> => e.type === "approval_resolved");
}

function controlResponse(h: RunHarness): { behavior: string; message?: string; updatedInput?: unknown } {
  const line = h.ledger().find((l) => l.event === "control-response")!.line as string;
  const parsed = JSON.parse(line);
  expect(parsed).toMatchObject({ type: "control_response", response: { subtype: "success", request_id: "req-1" } });
  return parsed.response.response;
}

describe("claude stream-json approvals", () => {
  test.concurrent("ask: the write waits for a person (no file yet), allow_once lets it happen", async () => {
    await using h = await claudeAsking();
    const { runId, request } = await untilApprovalRequest(h);
    expect(request).toMatchObject({ toolName: "Write", kind: "edit", title: "hello.txt", options: ["allow_once", "allow_run", "deny"] });
    expect(existsSync(h.target)).toBe(false);
    expect(h.service.get(runId)!.pendingApprovals).toEqual([expect.objectContaining({ approvalId: request.approvalId, toolName: "Write" })]);
    const argv = h.ledger()[0]!.argv as string[];
    expect(argv).toEqual(expect.arrayContaining(["--permission-prompt-tool", "stdio"]));
    expect(argv).not.toContain("bypassPermissions");

    expect(h.service.answerApproval(runId, request.approvalId, "allow_once")).toBe("answered");
    expect(h.service.answerApproval(runId, request.approvalId, "deny")).toBe("already_answered");
    const events = await allEvents(h, runId);
    expect(endOf(events).status).toBe("succeeded");
    expect(existsSync(h.target)).toBe(true);
    expect(controlResponse(h)).toEqual({ behavior: "allow", updatedInput: { file_path: h.target, content: "hi" } });
    expect(resolvedOf(events)).toEqual([{ type: "approval_resolved", approvalId: request.approvalId, decision: "allow_once", by: "user" }]);
  });

  test.concurrent("ask: deny leaves no file, tells the agent why, and the run still ends", async () => {
    await using h = await claudeAsking();
    const { runId, request } = await untilApprovalRequest(h);
    h.service.answerApproval(runId, request.approvalId, "deny", "not in this repo");
    const events = await allEvents(h, runId);
    expect(endOf(events).status).toBe("succeeded");
    expect(existsSync(h.target)).toBe(false);
    expect(controlResponse(h)).toEqual({ behavior: "deny", message: "not in this repo" });
    expect(h.service.get(runId)!.pendingApprovals).toBeUndefined();
  });

  test.concurrent("read-only: nothing is written and nobody is asked", async () => {
    await using h = await claudeAsking();
    const { runId } = await h.service.create({ projectId: h.projectId, agentId: "claude", message: "write hello.txt", permissionMode: "read-only" });
    const events = await allEvents(h, runId);
    expect(endOf(events).status).toBe("succeeded");
    expect(existsSync(h.target)).toBe(false);
    expect(agentEvents(events).some((e) => e.type === "approval_request" || e.type === "approval_resolved")).toBe(false);
    expect(controlResponse(h)).toEqual({ behavior: "deny", message: READ_ONLY_REFUSAL });
  });

  test.concurrent("an unanswered request is denied by the configured timeout", async () => {
    await using h = await claudeAsking();
    h.store.appConfig.update({ approvalTimeoutMs: 1000 });
    const { runId, request } = await untilApprovalRequest(h);
    const events = await allEvents(h, runId);
    expect(resolvedOf(events)).toEqual([{ type: "approval_resolved", approvalId: request.approvalId, decision: "deny", by: "timeout" }]);
    expect(endOf(events).status).toBe("succeeded");
    expect(existsSync(h.target)).toBe(false);
    expect(controlResponse(h).behavior).toBe("deny");
  });

  test.concurrent("cancel denies the pending request and ends the run canceled", async () => {
    await using h = await claudeAsking();
    const { runId, request } = await untilApprovalRequest(h);
    expect(await h.service.cancel(runId)).toBe(true);
    const events = await allEvents(h, runId);
    expect(resolvedOf(events)).toEqual([{ type: "approval_resolved", approvalId: request.approvalId, decision: "deny", by: "cancel" }]);
    expect(endOf(events).status).toBe("canceled");
    expect(existsSync(h.target)).toBe(false);
  });

  test.concurrent("a project's default mode applies when the request names none", async () => {
    await using h = await claudeAsking();
    h.store.appConfig.update({ projectPermissionModes: { [h.projectId]: "ask" } });
    const { runId } = await h.service.create({ projectId: h.projectId, agentId: "claude", message: "write hello.txt" });
    for await (const event of h.service.events(runId)) if (event.type === "agent" && event.event.type === "approval_request") break;
    expect(h.service.get(runId)!.pendingApprovals).toHaveLength(1);
    await h.service.cancel(runId);
  });

  test.concurrent("a mode the agent cannot honour is refused with PERMISSION_MODE_UNSUPPORTED, never run as bypass", async () => {
    await using h = await claudeAsking();
    const refused = await h.service.create({ projectId: h.projectId, agentId: "deepseek", message: "hi", permissionMode: "ask" }).catch((error) => error);
    expect(refused).toBeInstanceOf(OdError);
    expect(refused).toMatchObject({ kind: "invalid", code: "PERMISSION_MODE_UNSUPPORTED" });
    expect((refused as OdError).message).toContain("bypass");
    expect(h.ledger()).toEqual([]);
  });
});

describe("claude's AskUserQuestion: a question card, not a denied tool", () => {
  const QUESTIONS = [
    { question: "Which database?", header: "DB", multiSelect: false, options: [{ label: "Postgres", description: "relational" }, { label: "SQLite" }] },
    { question: "Which extras?", header: "Extras", multiSelect: true, options: [{ label: "Auth" }, { label: "Billing" }] },
  ];

  async function claudeQuestioning(): Promise<RunHarness> {
    const h = await runHarness({ defs: [def("claude")], shims: { claude: undefined } });
    h.script([{ readLine: true }, { canUseTool: { tool_name: "AskUserQuestion", input: { questions: QUESTIONS } } }, { outFile: textFixture }]);
    return h;
  }

  for (const permissionMode of ["ask", "read-only"] as const) {
    test.concurrent(`${permissionMode}: the questions wait for the person; their answers reach the agent with its input`, async () => {
      await using h = await claudeQuestioning();
      const { runId, request } = await untilApprovalRequest(h, permissionMode);
      expect(request).toMatchObject({ toolName: "AskUserQuestion", kind: "question", title: "2 questions", options: ["allow_once", "deny"], questions: QUESTIONS });
      // A question takes answers: neither a bare allow nor allow_run, and answers go only to questions.
      expect(h.service.answerApproval(runId, request.approvalId, "allow_once")).toBe("answers_required");
      expect(h.service.answerApproval(runId, request.approvalId, "allow_run", undefined, { "Which database?": "SQLite" })).toBe("not_an_option");
      const answers = { "Which database?": "SQLite", "Which extras?": "Auth, Billing" };
      expect(h.service.answerApproval(runId, request.approvalId, "allow_once", undefined, answers)).toBe("answered");
      const events = await allEvents(h, runId);
      expect(endOf(events).status).toBe("succeeded");
      expect(controlResponse(h)).toEqual({ behavior: "allow", updatedInput: { questions: QUESTIONS, answers } });
      expect(resolvedOf(events)).toEqual([{ type: "approval_resolved", approvalId: request.approvalId, decision: "allow_once", by: "user", answers }]);
    });
  }

  test.concurrent("skip tells the agent to go on with its own judgement", async () => {
    await using h = await claudeQuestioning();
    const { runId, request } = await untilApprovalRequest(h);
    expect(h.service.answerApproval(runId, request.approvalId, "deny")).toBe("answered");
    await allEvents(h, runId);
    expect(controlResponse(h)).toEqual({ behavior: "deny", message: "The user skipped this question: go on with your best judgement." });
  });

  test.concurrent("answers to a request that asked no question are refused", async () => {
    await using h = await claudeAsking();
    const { runId, request } = await untilApprovalRequest(h);
    expect(h.service.answerApproval(runId, request.approvalId, "allow_once", undefined, { q: "a" })).toBe("not_a_question");
    expect(h.service.answerApproval(runId, request.approvalId, "deny")).toBe("answered");
    await allEvents(h, runId);
  });
});
