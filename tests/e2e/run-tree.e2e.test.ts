// Issue #19 in Chromium against the built binary, with a fake Claude replaying Claude Code stream-json: a `Task`
// sub-agent shows as a collapsible child run under the call that started it (live and after a reload), tool cards
// show commands, exit codes, diffs and failures, and the usage view shows two runs' figures. Screenshots go to
// tests/e2e/screenshots/ (git-ignored).
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { subAgentTranscript, writeTranscript } from "./support/claude-transcripts.ts";
import { claudeUiDaemonForTests } from "./support/ui-daemon.ts";

const screenshots = join(import.meta.dir, "screenshots");
mkdirSync(screenshots, { recursive: true });

describe("run tree and usage in Chromium", () => {
  const { temp, ui } = claudeUiDaemonForTests("od-e2e-tree-");

  /** A signed-in page on `projectId`; records console errors and every request that leaves for another origin. */
  async function openPage(projectId: string): Promise<{ context: BrowserContext; page: Page; consoleErrors: string[]; foreign: string[] }> {
    const context = await ui.browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    const foreign: string[] = [];
    page.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));
    page.on("pageerror", (e) => consoleErrors.push(String(e)));
    page.on("request", (r) => !r.url().startsWith(ui.od.origin) && !r.url().startsWith("data:") && foreign.push(r.url()));
    await page.goto(`${await ui.od.signInUrl()}#/p/${projectId}`);
    await page.waitForFunction(() => document.querySelector("#daemon-status")?.textContent?.startsWith("connected"));
    await page.waitForSelector(`[data-testid=project-item][data-project-id="${projectId}"].selected`);
    await page.waitForSelector("[data-testid=composer-input]");
    await page.waitForSelector('[data-testid=agent-picker] option[value=claude]:not([disabled])', { state: "attached" });
    await page.selectOption("[data-testid=agent-picker]", "claude");
    return { context, page, consoleErrors, foreign };
  }

  async function send(page: Page, prompt: string): Promise<void> {
    await page.fill("[data-testid=composer-input]", prompt);
    await page.press("[data-testid=composer-input]", "Enter");
  }

  test("a Task sub-agent is a collapsible child run with its own calls and status, live and after a reload", async () => {
    const { id, path } = await ui.project("tree");
    const transcript = subAgentTranscript(path, temp.path);
    ui.fakes.script("claude", [{ readLine: true }, { outFile: transcript.working }, { waitForFile: join(temp.path, "release-subagent") }, { outFile: transcript.rest }]);
    const { context, page, consoleErrors, foreign } = await openPage(id);
    try {
      await send(page, "Survey the styles with a sub-agent");
      const subRun = page.locator("[data-testid=sub-run]");
      // While the sub-agent works: its child run is running and holds its own two calls, not the main list.
      await page.waitForSelector('[data-testid=sub-run][data-state=running] [data-testid=sub-run-items] [data-testid=tool-card][data-kind=file_edit]');
      expect(await subRun.locator("[data-testid=sub-run-meta]").textContent()).toBe("2 calls · running");
      await page.screenshot({ path: join(screenshots, "run-tree-running.png") });
      writeFileSync(join(temp.path, "release-subagent"), "go");

      await page.waitForSelector("[data-testid=end-banner][data-status=succeeded]");
      await page.waitForSelector("[data-testid=sub-run][data-state=done]");
      await assertTree(page);
      await page.screenshot({ path: join(screenshots, "run-tree.png"), fullPage: true });

      // Collapsible: closing the child run hides its calls; opening shows them again.
      // (A closed child run's body leaves the DOM once the page has seen the toggle, a task after the click.)
      await subRun.locator("summary.sub-run-summary").click();
      await subRun.locator("[data-testid=sub-run-items]").waitFor({ state: "hidden" });
      await subRun.locator("summary.sub-run-summary").click();
      await subRun.locator("[data-testid=sub-run-items]").waitFor({ state: "visible" });

      // A reload rebuilds the same tree from what od stored.
      await page.reload();
      await page.waitForSelector("[data-testid=sub-run][data-state=done]");
      await assertTree(page);
      expect(consoleErrors).toEqual([]);
      expect(foreign).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);

  async function assertTree(page: Page): Promise<void> {
    // Top level: the Task call (as a child run) and the main agent's own Bash call; the sub-agent's calls are inside.
    const topCalls = await page.$$eval(".run > [data-testid=tool-card], .run > [data-testid=sub-run]", (nodes) =>
      nodes.map((n) => `${(n as HTMLElement).dataset.testid}:${(n as HTMLElement).dataset.kind ?? ""}:${(n as HTMLElement).dataset.state}`),
    );
    expect(topCalls).toEqual(["sub-run::done", "tool-card:command:error"]);
    const children = await page.$$eval("[data-testid=sub-run-items] > [data-testid=tool-card]", (nodes) =>
      nodes.map((n) => `${(n as HTMLElement).dataset.kind}:${(n as HTMLElement).dataset.state}`),
    );
    expect(children).toEqual(["command:done", "file_edit:error"]);
    expect(await page.textContent("[data-testid=sub-run-meta]")).toBe("2 calls · done");
    expect(await page.textContent("[data-testid=sub-run-result]")).toContain("There are two stylesheets");
    // The sub-agent's refused edit shows its diff and a failure mark; the main Bash call its exit code and output.
    const edit = page.locator("[data-testid=sub-run-items] [data-testid=tool-card][data-kind=file_edit]");
    expect(await edit.locator("[data-testid=tool-failure]").textContent()).toBe("failed");
    expect(await edit.locator(".diff-del").textContent()).toBe("-h1 { color: red; }\n");
    expect(await edit.locator(".diff-add").textContent()).toBe("+h1 { color: navy; }\n");
    const lint = page.locator(".run > [data-testid=tool-card][data-kind=command]");
    expect(await lint.locator("[data-testid=tool-exit]").textContent()).toBe("exit 2");
    expect(await lint.locator("[data-testid=tool-output] pre").textContent()).toContain("Unexpected named color");
    // The sub-agent's chatter is not part of the answer.
    const answer = (await page.locator("[data-testid=assistant-text]").allTextContents()).join(" ");
    expect(answer).toContain("The sub-agent found main.css and print.css.");
    expect(answer).not.toContain("Listing the stylesheets first.");
  }

  test("the usage view shows two runs' tokens, cost and duration, and a chart drawn by the page", async () => {
    const { id, path } = await ui.project("usage");
    const { context, page, consoleErrors, foreign } = await openPage(id);
    try {
      ui.fakes.script("claude", [{ readLine: true }, { outFile: writeTranscript(path, temp.path) }]);
      await send(page, "Write the file");
      await page.waitForFunction(() => document.querySelectorAll("[data-testid=end-banner][data-status=succeeded]").length === 1);
      ui.fakes.script("claude", [{ readLine: true }, { outFile: subAgentTranscript(path, temp.path).working }, { outFile: subAgentTranscript(path, temp.path).rest }]);
      await send(page, "Survey the styles");
      await page.waitForFunction(() => document.querySelectorAll("[data-testid=end-banner][data-status=succeeded]").length === 2);
      const runs = await ui.api<{ runs: Array<{ id: string; createdAt: number }> }>(`/api/runs?projectId=${id}`);
      const [second, first] = runs.runs.map((r) => r.id);

      await page.click("[data-testid=open-usage]");
      await page.waitForSelector(`[data-testid=usage-view] [data-testid=usage-row][data-run-id="${second}"]`);
      const row = (runId: string) => page.locator(`[data-testid=usage-row][data-run-id="${runId}"]`);
      expect(await row(first!).locator("[data-testid=usage-tokens]").textContent()).toBe("20 / 19");
      expect(await row(first!).locator("[data-testid=usage-cost]").textContent()).toBe("$0.0005");
      expect(await row(second!).locator("[data-testid=usage-tokens]").textContent()).toBe("226 / 130");
      expect(await row(second!).locator("[data-testid=usage-cost]").textContent()).toBe("$0.0184");
      expect(await row(second!).locator("td").nth(2).textContent()).toBe("claude-sonnet-4-5-20250929");
      expect(await row(first!).locator("[data-testid=usage-duration]").textContent()).toMatch(/^\d+\.\ds$/);
      // The chart's segments add up, per agent/model, to the tokens of every run od reports (other tests' too).
      const usage = await ui.api<{ runs: Array<{ agentId: string; model: string | null; inputTokens: number | null; outputTokens: number | null }> }>("/api/usage");
      const expected: Record<string, number> = {};
      for (const r of usage.runs) expected[`${r.agentId} · ${r.model}`] = (expected[`${r.agentId} · ${r.model}`] ?? 0) + (r.inputTokens ?? 0) + (r.outputTokens ?? 0);
      const drawn = await page.$$eval("[data-testid=usage-bar]", (nodes) =>
        nodes.reduce<Record<string, number>>((sums, n) => {
          const key = n.getAttribute("data-series")!;
          sums[key] = (sums[key] ?? 0) + Number(n.getAttribute("data-value"));
          return sums;
        }, {}),
      );
      expect(drawn).toEqual(expected);
      expect(drawn["claude · claude-opus-5-5"]).toBe(39);
      expect(drawn["claude · claude-sonnet-4-5-20250929"]! % 356).toBe(0);
      await page.screenshot({ path: join(screenshots, "usage.png") });

      await page.click("[data-testid=usage-metric-cost]");
      await page.waitForFunction(() => [...document.querySelectorAll("[data-testid=usage-bar]")].some((n) => n.getAttribute("data-value") === "0.00046"));
      await page.screenshot({ path: join(screenshots, "usage-cost.png") });
      expect(consoleErrors).toEqual([]);
      expect(foreign).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);
});
