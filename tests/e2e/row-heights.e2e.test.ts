// Issue #40: the windowed lists guess a row's height before it was ever shown (web/components/row-heights.ts), and the
// scrollbar, a jump to the top and a reload's return to its place hold only as far as the guesses do. Here each kind
// of row a run shows is laid out by Chromium and its guess must be near what it measures.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import type { RunEvent } from "../../server/contracts/runs.ts";
import { defaultSections, estimateItem } from "../../web/components/row-heights.ts";
import type { SectionOpen } from "../../web/state/disclosures.ts";
import { runStateFromEvents } from "../../web/state/run-history.ts";
import type { ApprovalItem, RunItem } from "../../web/state/run-state.ts";
import type { FakeStep } from "../support/fake-agents.ts";
import { claudeUiDaemonForTests } from "./support/ui-daemon.ts";

/** The gap between a run's items (`.run` in styles.css; run-view.tsx's ITEM_GAP). */
const ITEM_GAP = 8;
const SESSION = "11111111-2222-3333-4444-555555555555";

const lines = (count: number, prefix: string) => Array.from({ length: count }, (_, i) => `${prefix} line ${i}`).join("\n");

type GuessedRow = { row: string; guessed: number; measured: number };

/** Fake Claude stream-json lines: any message, an assistant message (a sub-agent's with `parent`), a call with its result. */
function claudeLines() {
  let messages = 0;
  let calls = 0;
  const out = (message: unknown): FakeStep => ({ out: JSON.stringify({ ...(message as object), session_id: SESSION }) });
  const assistant = (content: unknown[], parent?: string) =>
    out({ type: "assistant", message: { id: `m-${++messages}`, type: "message", role: "assistant", content }, ...(parent ? { parent_tool_use_id: parent } : {}) });
  const tool = (name: string, input: unknown, result: string, isError = false): FakeStep[] => {
    const toolId = `toolu_${++calls}`;
    return [assistant([{ type: "tool_use", id: toolId, name, input }]), out({ type: "user", message: { role: "user", content: [{ tool_use_id: toolId, type: "tool_result", content: result, is_error: isError }] } })];
  };
  return { out, assistant, tool };
}

/** Each of the run's items as its row: the guess for it, and its height in the page (gap included). */
async function guessedRows(page: Page, runId: string, items: readonly RunItem[], name: (item: RunItem) => string, sections: SectionOpen = defaultSections): Promise<GuessedRow[]> {
  const measured = await page.$$eval(`[data-run-id="${runId}"] > [data-testid]`, (rows) =>
    rows.filter((row) => ["assistant-text", "thinking", "tool-card", "sub-run", "notice", "approval-card"].includes((row as HTMLElement).dataset.testid!)).map((row) => row.getBoundingClientRect().height),
  );
  expect(measured).toHaveLength(items.length);
  return items.map((item, i) => ({ row: name(item), guessed: estimateItem(item, ITEM_GAP, sections), measured: Math.round(measured[i]! + ITEM_GAP) }));
}

/** The rows whose guess is off by more than a fifth of their height (16 px at least). */
const offRows = (rows: readonly GuessedRow[]) => rows.filter(({ guessed, measured }) => Math.abs(guessed - measured) > Math.max(16, measured * 0.2));

describe("row height guesses in Chromium", () => {
  const { ui } = claudeUiDaemonForTests("od-e2e-rows-");

  test("each kind of row is guessed near the height Chromium lays it out at", async () => {
    const { id, path } = await ui.project("rows");
    const { out, assistant, tool } = claudeLines();
    const steps: FakeStep[] = [
      { readLine: true },
      out({ type: "system", subtype: "init", cwd: path, tools: ["Bash", "Edit", "Write"], model: "fake-model" }),
      assistant([{ type: "thinking", thinking: "Working out what to do first.", signature: "s" }]),
      assistant([{ type: "text", text: "A short line." }]),
      ...tool("Bash", { command: "ls" }, lines(3, "out")),
      assistant([{ type: "text", text: lines(6, "A paragraph of several words that fills some of the width of the conversation column") }]),
      ...tool("Bash", { command: "seq 50" }, lines(50, "seq")),
      ...tool("Bash", { command: "false" }, lines(4, "error"), true),
      ...tool("Edit", { file_path: join(path, "a.ts"), old_string: lines(3, "old"), new_string: lines(3, "new") }, "ok"),
      ...tool("Edit", { file_path: join(path, "b.ts"), old_string: lines(60, "old"), new_string: lines(60, "new") }, "ok"),
      ...tool("Write", { file_path: join(path, "c.ts"), content: lines(12, "content") }, "ok"),
      ...tool("Write", { file_path: join(path, "d.ts"), content: lines(200, "content") }, "ok"),
      ...tool("Read", { file_path: join(path, "c.ts") }, lines(12, "content")),
      ...tool("Bash", { command: "cat <<EOF\none\ntwo\nEOF" }, lines(2, "cat")),
      // A sub-agent with two calls of its own and a report.
      assistant([{ type: "tool_use", id: "toolu_task", name: "Task", input: { description: "Survey the styles", prompt: "Look at every stylesheet." } }]),
      out({ type: "assistant", message: { id: "m-child-1", type: "message", role: "assistant", content: [{ type: "tool_use", id: "toolu_child_1", name: "Bash", input: { command: "ls styles" } }] }, parent_tool_use_id: "toolu_task" }),
      out({ type: "user", message: { role: "user", content: [{ tool_use_id: "toolu_child_1", type: "tool_result", content: lines(2, "css"), is_error: false }] }, parent_tool_use_id: "toolu_task" }),
      out({ type: "assistant", message: { id: "m-child-2", type: "message", role: "assistant", content: [{ type: "tool_use", id: "toolu_child_2", name: "Edit", input: { file_path: join(path, "s.css"), old_string: "a {}", new_string: "a { color: red; }" } }] }, parent_tool_use_id: "toolu_task" }),
      out({ type: "user", message: { role: "user", content: [{ tool_use_id: "toolu_child_2", type: "tool_result", content: "ok", is_error: false }] }, parent_tool_use_id: "toolu_task" }),
      out({ type: "user", message: { role: "user", content: [{ tool_use_id: "toolu_task", type: "tool_result", content: "Two stylesheets; the first one is now red.", is_error: false }] } }),
      ...tool("Edit", { file_path: join(path, "e.ts"), old_string: "x" }, "File has not been read yet.", true),
      assistant([{ type: "text", text: "Here is the plan:\n\n- first, the schema\n- then the routes\n- last, the page\n\n## Details\n\nThe schema has three tables, each with its own id and a created_at column that the page sorts by.\n\n```ts\nconst a = 1;\nconst b = 2;\nconst c = 3;\n```\n\nThat is all." }]),
      assistant([{ type: "text", text: "Done." }]),
      out({ type: "result", subtype: "success", is_error: false, result: "Done.", duration_ms: 1, num_turns: 1 }),
    ];
    ui.fakes.script("claude", steps);
    const { runId, conversationId } = await ui.api<{ runId: string; conversationId: string }>("/api/runs", { method: "POST", body: JSON.stringify({ projectId: id, agentId: "claude", message: "go" }) });
    const deadline = Date.now() + 60_000;
    while ((await ui.api<{ status: string }>(`/api/runs/${runId}`)).status !== "succeeded") {
      if (Date.now() > deadline) throw new Error("the run did not succeed");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const { events } = await ui.api<{ events: RunEvent[] }>(`/api/runs/${runId}/history`);
    const items = runStateFromEvents(runId, events).items;

    const context = await ui.browser.newContext({ viewport: { width: 1400, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(`${await ui.od.signInUrl()}#/p/${id}/c/${conversationId}`);
      await page.waitForSelector(`[data-run-id="${runId}"] [data-testid=end-banner]`);
      const rows = await guessedRows(page, runId, items, (item) => (item.kind === "tool" ? `${item.kind} ${item.name}` : item.kind));
      expect(offRows(rows)).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  test("a section the reader opened or closed is guessed as they left it, after a reload too", async () => {
    const { id, path } = await ui.project("chosen");
    const { out, assistant, tool } = claudeLines();
    ui.fakes.script("claude", [
      { readLine: true },
      out({ type: "system", subtype: "init", cwd: path, tools: ["Bash", "Edit", "Write", "Task"], model: "fake-model" }),
      assistant([{ type: "thinking", thinking: `${lines(4, "A thought about the next step, long enough to fill a good part of the column's width")}\n${"A much longer thought that wraps over several lines of the column. ".repeat(6)}`, signature: "s" }]),
      ...tool("Edit", { file_path: join(path, "open.ts"), old_string: lines(15, "old"), new_string: lines(15, "new") }, "ok"),
      ...tool("Write", { file_path: join(path, "long.ts"), content: lines(300, "content") }, "ok"),
      ...tool("Bash", { command: "seq 100" }, lines(100, "seq")),
      ...tool("Bash", { command: "ls" }, lines(3, "out")),
      ...tool("Edit", { file_path: join(path, "short.ts"), old_string: lines(2, "old"), new_string: lines(2, "new") }, "ok"),
      assistant([{ type: "tool_use", id: "toolu_task", name: "Task", input: { description: "Survey the styles", prompt: "Look at every stylesheet." } }]),
      assistant([{ type: "tool_use", id: "toolu_child", name: "Bash", input: { command: "ls styles" } }], "toolu_task"),
      out({ type: "user", message: { role: "user", content: [{ tool_use_id: "toolu_child", type: "tool_result", content: lines(2, "css"), is_error: false }] }, parent_tool_use_id: "toolu_task" }),
      out({ type: "user", message: { role: "user", content: [{ tool_use_id: "toolu_task", type: "tool_result", content: "Two stylesheets.", is_error: false }] } }),
      assistant([{ type: "text", text: "Done." }]),
      out({ type: "result", subtype: "success", is_error: false, result: "Done.", duration_ms: 1, num_turns: 1 }),
    ]);
    const { runId, conversationId } = await ui.api<{ runId: string; conversationId: string }>("/api/runs", { method: "POST", body: JSON.stringify({ projectId: id, agentId: "claude", message: "go" }) });
    const context = await ui.browser.newContext({ viewport: { width: 1400, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(`${await ui.od.signInUrl()}#/p/${id}/c/${conversationId}`);
      await page.waitForSelector(`[data-run-id="${runId}"] [data-testid=end-banner][data-status=succeeded]`, { timeout: 60_000 });
      const run = page.locator(`[data-run-id="${runId}"]`);
      const cards = run.locator(":scope > [data-testid=tool-card]");
      // Opened: the thought, the long Write's content, the long output and a short Edit's input; closed: the short output
      // and the sub-agent.
      // One click each (a click is the reader's choice at once, however the row renders meanwhile).
      const toggleTo = async (summary: Locator, open: boolean) => {
        await summary.click();
        for (const deadline = Date.now() + 5_000; (await summary.evaluate((element) => (element.parentElement as HTMLDetailsElement).open)) !== open; ) {
          if (Date.now() > deadline) throw new Error(`a click did not ${open ? "open" : "close"} its section`);
          await page.waitForTimeout(20);
        }
      };
      await toggleTo(run.locator(":scope > [data-testid=thinking] > summary"), true);
      await toggleTo(cards.nth(1).locator("[data-testid=tool-content] > summary, [data-testid=tool-diff] > summary"), true);
      await toggleTo(cards.nth(2).locator("[data-testid=tool-output] > summary"), true);
      await toggleTo(cards.nth(3).locator("[data-testid=tool-output] > summary"), false);
      await toggleTo(cards.nth(4).locator(".tool-io > summary"), true);
      await toggleTo(run.locator(":scope > [data-testid=sub-run] .sub-run-summary").first(), false);
      await page.reload();
      await page.waitForSelector(`[data-run-id="${runId}"] [data-testid=end-banner]`);
      const kept = new Map<string, boolean>(JSON.parse((await page.evaluate(() => sessionStorage.getItem("od.disclosed"))) ?? "[]"));
      expect(kept.size).toBe(6);
      const sections: SectionOpen = (rowKey, section, byDefault) => kept.get(`${runId}\n${rowKey}\n${section}`) ?? byDefault;
      const { events } = await ui.api<{ events: RunEvent[] }>(`/api/runs/${runId}/history`);
      const items = runStateFromEvents(runId, events).items;
      const rows = await guessedRows(page, runId, items, (item) => (item.kind === "tool" ? `${item.kind} ${item.name} ${item.key}` : item.kind), sections);
      expect(offRows(rows)).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  test("answered approval and question cards are guessed near their height", async () => {
    const { id, path } = await ui.project("asked");
    const questions = [
      { question: "Which database?", header: "DB", multiSelect: false, options: [{ label: "Postgres", description: "relational" }, { label: "SQLite" }] },
      { question: "Which extras?", multiSelect: true, options: [{ label: "Auth" }, { label: "Billing" }] },
    ];
    ui.fakes.script("claude", [
      { readLine: true },
      { out: JSON.stringify({ type: "system", subtype: "init", cwd: path, session_id: SESSION, tools: ["Write"], model: "fake-model" }) },
      { canUseTool: { tool_name: "Write", input: { file_path: join(path, "a.txt"), content: "hi" }, writeFile: { path: join(path, "a.txt"), content: "hi" } } },
      { canUseTool: { tool_name: "AskUserQuestion", input: { questions } } },
      { out: JSON.stringify({ type: "assistant", message: { id: "m-done", type: "message", role: "assistant", content: [{ type: "text", text: "Done." }] }, session_id: SESSION }) },
      { out: JSON.stringify({ type: "result", subtype: "success", is_error: false, result: "Done.", session_id: SESSION, duration_ms: 1, num_turns: 1 }) },
    ]);
    const { runId, conversationId } = await ui.api<{ runId: string; conversationId: string }>("/api/runs", { method: "POST", body: JSON.stringify({ projectId: id, agentId: "claude", message: "go", permissionMode: "ask" }) });
    const context = await ui.browser.newContext({ viewport: { width: 1400, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(`${await ui.od.signInUrl()}#/p/${id}/c/${conversationId}`);
      // Each card's height while it waits, then answered.
      const open = page.locator("[data-testid=approval-card][data-state=open]");
      const openHeight = async () => Math.round((await open.evaluate((card) => card.getBoundingClientRect().height)) + ITEM_GAP);
      await open.locator("[data-testid=approval-allow_once]").waitFor({ timeout: 60_000 });
      const openApproval = await openHeight();
      await open.locator("[data-testid=approval-allow_once]").click();
      await open.locator("[data-testid=question-option]").first().waitFor({ timeout: 60_000 });
      const openQuestion = await openHeight();
      await open.locator("[data-testid=question-option]").nth(1).check();
      await open.locator("[data-testid=question-answer]").click();
      await page.waitForSelector(`[data-run-id="${runId}"] [data-testid=end-banner][data-status=succeeded]`, { timeout: 60_000 });
      await page.reload();
      await page.waitForSelector(`[data-run-id="${runId}"] [data-testid=end-banner]`);
      const { events } = await ui.api<{ events: RunEvent[] }>(`/api/runs/${runId}/history`);
      const items = runStateFromEvents(runId, events).items;
      const rows = await guessedRows(page, runId, items, (item) => (item.kind === "approval" ? `approval ${item.approvalKind}` : item.kind));
      // The same cards while they waited: guessed as the answered items without their answer.
      const [approval, question] = items.filter((item) => item.kind === "approval");
      const waiting = (item: RunItem | undefined) => estimateItem({ ...(item as ApprovalItem), decision: undefined, by: undefined, answers: undefined }, ITEM_GAP);
      rows.push({ row: "approval edit, open", guessed: waiting(approval), measured: openApproval }, { row: "approval question, open", guessed: waiting(question), measured: openQuestion });
      expect(offRows(rows)).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
