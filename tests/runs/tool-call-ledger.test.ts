// The tool-call ledger behind a succeeded run's warning (issue #34): when it warns, and where it finds the cause.
import { expect, test } from "bun:test";
import type { AgentEvent } from "../../server/contracts/events.ts";
import { ToolCallLedger } from "../../server/runs/tool-call-ledger.ts";

function ledgerOf(calls: { ok: boolean; output?: string }[], extra: AgentEvent[] = []): ToolCallLedger {
  const ledger = new ToolCallLedger();
  for (const event of extra) ledger.push(event);
  calls.forEach((call, index) => {
    ledger.push({ type: "tool_use", id: `c${index}`, name: "Bash", input: { command: `step ${index}` }, kind: "command" });
    ledger.push({ type: "tool_result", toolUseId: `c${index}`, content: call.output ?? "", ...(call.ok ? {} : { isError: true }) });
  });
  return ledger;
}

test("a sandbox warning on stderr names the cause of calls whose own output says nothing", () => {
  const warning = ledgerOf([{ ok: false }, { ok: false }, { ok: true }]).warning("warning: Codex's Linux sandbox uses bubblewrap and needs access to create user namespaces.\n");
  expect(warning).toMatchObject({ toolCalls: 3, failedToolCalls: 2, failed: [{ tool: "Bash", target: "step 0", error: "failed" }, { target: "step 1" }] });
  expect(warning?.likelyCause).toContain("bubblewrap");
  expect(warning?.evidence).toBe("warning: Codex's Linux sandbox uses bubblewrap and needs access to create user namespaces.");
});

test("half failed is not most; one failed call warns only with a sandbox's signature", () => {
  expect(ledgerOf([{ ok: false }, { ok: true }]).warning("")).toBeUndefined();
  expect(ledgerOf([{ ok: false, output: "grep: no match" }]).warning("")).toBeUndefined();
  expect(ledgerOf([{ ok: false, output: "bwrap: setting up uid map: Permission denied" }]).warning("")).toMatchObject({ failedToolCalls: 1 });
});

test("todo lists and sub-agents are not counted; a long run names its first failed calls and counts the rest", () => {
  const todo: AgentEvent = { type: "tool_use", id: "t", name: "TodoWrite", input: {}, kind: "todo" };
  const ledger = ledgerOf(Array.from({ length: 40 }, () => ({ ok: false, output: "boom\nmore" })), [todo, { type: "tool_result", toolUseId: "t", content: "", isError: true }]);
  const warning = ledger.warning("");
  expect(warning).toMatchObject({ toolCalls: 40, failedToolCalls: 40 });
  expect(warning?.failed).toHaveLength(10);
  expect(warning?.message).toBe("40 of 40 tool calls failed (Bash step 0: boom; Bash step 1: boom; Bash step 2: boom; and 37 more).");
});
