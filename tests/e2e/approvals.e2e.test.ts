// Issue #37 on the page, in Chromium against the built binary: a fake Claude Code that asks before it writes (Claude's
// can_use_tool control request). The composer's permission control asks for `ask` (remembered for the project); the
// question shows as a card while the tab's title says the run waits, and again after a reload while it waits; Allow
// once lets the write happen, Deny (with a message) does not; after a reload the cards show what was decided, by whom.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { longClaudeRunLines } from "../fakes/long-claude-run.ts";
import { claudeUiDaemonForTests } from "./support/ui-daemon.ts";

const TEXT_FIXTURE = join(import.meta.dir, "..", "fixtures", "claude", "text.jsonl");

describe("approvals on the page", () => {
  const { temp, ui } = claudeUiDaemonForTests("od-e2e-approvals-");

  function askToWrite(target: string): void {
    ui.fakes.script("claude", [
      { readLine: true },
      { canUseTool: { tool_name: "Write", input: { file_path: target, content: "hi" }, writeFile: { path: target, content: "hi" } } },
      { outFile: TEXT_FIXTURE },
    ]);
  }

  /** A signed-in page on the project, with the fake Claude Code picked. */
  async function openWithClaude(context: BrowserContext, projectId: string): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${await ui.od.signInUrl()}#/p/${projectId}`);
    await page.waitForSelector("[data-testid=agent-picker] option[value=claude]:not([disabled])", { state: "attached" });
    await page.selectOption("[data-testid=agent-picker]", "claude");
    return page;
  }

  async function send(page: Page, prompt: string): Promise<void> {
    await page.fill("[data-testid=composer-input]", prompt);
    await page.keyboard.press("Enter");
  }

  /** A page on the project that sent `prompt` to the fake Claude Code, and the question card it then shows. */
  async function questionAsked(context: BrowserContext, projectId: string, prompt: string) {
    const page = await openWithClaude(context, projectId);
    await send(page, prompt);
    const card = page.locator("[data-testid=approval-card][data-state=open]");
    await card.waitFor({ timeout: 60_000 });
    return { page, card };
  }

  test("ask: the card waits for the person, the title says so; allow once writes, deny does not; a reload shows who decided", async () => {
    const project = await ui.project("asking");
    const first = join(project.path, "first.txt");
    const second = join(project.path, "second.txt");
    const context = await ui.browser.newContext({ viewport: { width: 1400, height: 900 } });
    try {
      const page = await openWithClaude(context, project.id);
      await page.selectOption("[data-testid=permission-picker]", "ask");
      // Remembered for the project.
      const remembered = async () => (await ui.api<{ config: { projectPermissionModes?: Record<string, string> } }>("/api/app-config")).config.projectPermissionModes?.[project.id];
      for (let i = 0; i < 100 && (await remembered()) !== "ask"; i++) await Bun.sleep(50);
      expect(await remembered()).toBe("ask");

      askToWrite(first);
      await send(page, "Write first.txt");
      const card = page.locator("[data-testid=approval-card][data-state=open]");
      await card.waitFor({ timeout: 60_000 });
      expect(await card.textContent()).toContain("first.txt");
      expect(await page.title()).toContain("Waiting for your answer");
      expect(existsSync(first)).toBe(false);
      // A reload while it waits shows the same open card, still answerable.
      await page.reload();
      await page.locator("[data-testid=approval-card][data-state=open]").waitFor({ timeout: 30_000 });
      expect(await page.locator("[data-testid=approval-card][data-state=open]").textContent()).toContain("first.txt");
      await page.click("[data-testid=approval-allow_once]");
      await page.waitForSelector("[data-testid=approval-card][data-state=resolved-allow_once]");
      await page.waitForSelector("[data-testid=run-status][data-running=false][data-status=succeeded]", { timeout: 60_000 });
      expect(existsSync(first)).toBe(true);
      expect(await page.title()).toBe("od");

      askToWrite(second);
      await send(page, "Write second.txt");
      await page.locator("[data-testid=approval-card][data-state=open]").waitFor({ timeout: 60_000 });
      await page.fill("[data-testid=approval-message]", "not that file");
      await page.click("[data-testid=approval-deny]");
      await page.waitForSelector("[data-testid=approval-card][data-state=resolved-deny]");
      await page.waitForFunction(() => document.querySelectorAll("[data-testid=run-status][data-running=false]").length === 2, undefined, { timeout: 60_000 });
      expect(existsSync(second)).toBe(false);
      const denied = ui.fakes.ledger().filter((line) => line.event === "control-response").map((line) => JSON.parse(String(line.line)).response.response);
      expect(denied.at(-1)).toMatchObject({ behavior: "deny", message: expect.stringContaining("not that file") });

      await page.reload();
      await page.waitForSelector("[data-testid=approval-card][data-state=resolved-deny]", { timeout: 30_000 });
      const outcomes = await page.locator("[data-testid=approval-outcome]").allTextContents();
      expect(outcomes).toEqual(["Allowed once by you", "Denied by you"]);
      expect(await page.locator("[data-testid=approval-card][data-state=open]").count()).toBe(0);
    } finally {
      await context.close();
    }
  }, 180_000);

  test("AskUserQuestion: a question card takes a choice and the person's own words, the agent gets them, a reload shows the answers", async () => {
    const project = await ui.project("questions");
    await ui.api("/api/app-config", { method: "PUT", body: JSON.stringify({ projectPermissionModes: { [project.id]: "ask" } }) });
    const questions = [
      { question: "Which database?", header: "DB", multiSelect: false, options: [{ label: "Postgres", description: "relational" }, { label: "SQLite" }] },
      { question: "Which extras?", multiSelect: true, options: [{ label: "Auth" }, { label: "Billing" }] },
    ];
    ui.fakes.script("claude", [{ readLine: true }, { canUseTool: { tool_name: "AskUserQuestion", input: { questions } } }, { outFile: TEXT_FIXTURE }]);
    const context = await ui.browser.newContext({ viewport: { width: 1400, height: 900 } });
    try {
      const { page, card } = await questionAsked(context, project.id, "Set up the app");
      expect(await page.title()).toContain("Waiting for your answer");
      const [database, extras] = [card.locator("[data-testid=question]").nth(0), card.locator("[data-testid=question]").nth(1)];
      expect(await database.textContent()).toContain("Which database?");
      expect(await card.locator("[data-testid=question-answer]").isDisabled()).toBe(true);
      await database.locator("[data-testid=question-option]").nth(1).check();
      await extras.locator("[data-testid=question-own]").fill("Auth only, no billing yet");
      await card.locator("[data-testid=question-answer]").click();
      await page.waitForSelector("[data-testid=approval-card][data-state=resolved-allow_once]");
      await page.waitForSelector("[data-testid=run-status][data-running=false][data-status=succeeded]", { timeout: 60_000 });
      const answered = ui.fakes.ledger().filter((line) => line.event === "control-response").map((line) => JSON.parse(String(line.line)).response.response);
      expect(answered.at(-1)).toEqual({ behavior: "allow", updatedInput: { questions, answers: { "Which database?": "SQLite", "Which extras?": "Auth only, no billing yet" } } });

      await page.reload();
      await page.waitForSelector("[data-testid=approval-card][data-state=resolved-allow_once]", { timeout: 30_000 });
      expect(await page.locator("[data-testid=question-answered]").allTextContents()).toEqual(["SQLite", "Auth only, no billing yet"]);
      expect(await page.locator("[data-testid=approval-outcome]").allTextContents()).toEqual(["Answered by you"]);
    } finally {
      await context.close();
    }
  }, 180_000);

  test("a half-given answer outlives its card scrolling out of the windowed list and back, and a reload; sent, it is let go", async () => {
    const project = await ui.project("questions-far");
    await ui.api("/api/app-config", { method: "PUT", body: JSON.stringify({ projectPermissionModes: { [project.id]: "ask" } }) });
    // Forty items before the question (a list this long is windowed): the long run without its closing answer and end.
    const before = join(temp.path, "before-question.jsonl");
    writeFileSync(before, longClaudeRunLines({ cycles: 20, deltasPerCycle: 4, resultLines: 10 }).slice(0, -6).join("\n") + "\n");
    const questions = [{ question: "Which database?", multiSelect: false, options: [{ label: "Postgres" }, { label: "SQLite" }] }];
    ui.fakes.script("claude", [{ readLine: true }, { outFile: before }, { canUseTool: { tool_name: "AskUserQuestion", input: { questions } } }, { outFile: TEXT_FIXTURE }]);
    const context = await ui.browser.newContext({ viewport: { width: 1400, height: 900 } });
    try {
      const { page, card } = await questionAsked(context, project.id, "Set up the app");
      await card.locator("[data-testid=question-option]").nth(0).check();
      await card.locator("[data-testid=question-own]").fill("Postgres 16, please");
      // Away (the card leaves the DOM) and back.
      const timeline = page.locator("[data-testid=timeline]");
      await timeline.evaluate((element) => (element.scrollTop = 0));
      await card.waitFor({ state: "detached" });
      await timeline.evaluate((element) => (element.scrollTop = element.scrollHeight));
      await card.waitFor();
      expect(await card.locator("[data-testid=question-option]").nth(0).isChecked()).toBe(true);
      expect(await card.locator("[data-testid=question-own]").inputValue()).toBe("Postgres 16, please");
      // A reload of the tab keeps it too (the run still waits for the answer).
      await page.reload();
      await card.waitFor({ timeout: 30_000 });
      expect(await card.locator("[data-testid=question-option]").nth(0).isChecked()).toBe(true);
      expect(await card.locator("[data-testid=question-own]").inputValue()).toBe("Postgres 16, please");
      await card.locator("[data-testid=question-answer]").click();
      await page.waitForSelector("[data-testid=approval-card][data-state=resolved-allow_once]");
      const answered = ui.fakes.ledger().filter((line) => line.event === "control-response").map((line) => JSON.parse(String(line.line)).response.response);
      expect(answered.at(-1)).toEqual({ behavior: "allow", updatedInput: { questions, answers: { "Which database?": "Postgres 16, please" } } });
      // Sent, the draft is no longer kept.
      expect(await page.evaluate(() => sessionStorage.getItem("od.drafts") ?? "")).not.toContain("Postgres 16");
    } finally {
      await context.close();
    }
  }, 180_000);

  test("a project's own MCP servers: the page shows their command lines and asks once; Allow approves exactly that list", async () => {
    const project = await ui.project("with-mcp");
    mkdirSync(join(project.path, ".od"));
    writeFileSync(join(project.path, ".od", "mcp-config.json"), JSON.stringify({ mcpServers: { marker: { command: "sh", args: ["-c", "touch marker"] } } }));
    const context = await ui.browser.newContext({ viewport: { width: 1400, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(`${await ui.od.signInUrl()}#/p/${project.id}`);
      const banner = page.locator("[data-testid=mcp-consent]");
      await banner.waitFor();
      expect(await page.locator("[data-testid=mcp-consent-command]").textContent()).toBe("sh -c touch marker");
      await page.click("[data-testid=mcp-consent-allow]");
      await banner.waitFor({ state: "detached" });
      expect(await ui.api<{ status: string }>(`/api/projects/${project.id}/mcp-consent`)).toMatchObject({ status: "approved" });
      // Approved once: a reload does not ask again.
      await page.reload();
      await page.waitForSelector("[data-testid=composer-input]");
      await page.waitForTimeout(300);
      expect(await banner.count()).toBe(0);
    } finally {
      await context.close();
    }
  }, 120_000);
});
