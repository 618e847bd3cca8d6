// Issue #39, keyboard and screen readers, in Chromium against the built binary: axe-core finds no critical or serious
// violation in each view, and a keyboard alone creates, renames and deletes a project and a conversation, sends a
// prompt and stops the run (Esc, from wherever the focus is).
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { initLine, writeTurnTranscript } from "./support/claude-transcripts.ts";
import { claudeUiDaemonForTests } from "./support/ui-daemon.ts";

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

type Violation = { id: string; impact: string | null; help: string; nodes: Array<{ target: string[] }> };

/** axe-core's critical and serious violations on the page as it is now. */
async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ content: AXE_SOURCE });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: unknown[] }> } }).axe;
    return (await axe.run(document, { resultTypes: ["violations"] })).violations;
  }) as Violation[];
  return violations.filter((v) => v.impact === "critical" || v.impact === "serious").map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}`);
}

/** Presses Tab until the focused element matches `selector` (at most 80 times). */
async function tabTo(page: Page, selector: string): Promise<void> {
  for (let i = 0; i < 80; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`Tab never reached ${selector}`);
}

describe("keyboard and screen readers", () => {
  const { temp, ui } = claudeUiDaemonForTests("od-e2e-a11y-");

  test("axe: no critical or serious violation in the empty page, a conversation with tools and diffs, settings, usage, a dialog, and at phone width", async () => {
    const project = await ui.project("axe");
    const found: Record<string, string[]> = {};
    for (const [width, height] of [[1440, 900], [390, 844]] as const) {
      // axe is injected as a script, which the page's own CSP (rightly) refuses.
      const context = await ui.browser.newContext({ viewport: { width, height }, bypassCSP: true });
      try {
        const page = await context.newPage();
        await page.goto(await ui.od.signInUrl());
        await page.waitForSelector("[data-testid=composer-input]");
        found[`${width}: empty`] = await seriousViolations(page);

        await page.goto(`${await ui.od.signInUrl()}#/p/${project.id}`);
        await page.waitForSelector("[data-testid=agent-picker] option[value=claude]:not([disabled])", { state: "attached" });
        const outDir = join(temp.path, `axe-${width}`);
        mkdirSync(outDir, { recursive: true });
        const turn = writeTurnTranscript(project.path, outDir);
        ui.fakes.script("claude", [{ readLine: true }, { outFile: turn.thinking }, { outFile: turn.toolUse }, { writeFile: { path: join(project.path, "hello.html"), content: "<h1>hello from od</h1>" } }, { outFile: turn.toolResult }, { outFile: turn.answer }]);
        await page.selectOption("[data-testid=agent-picker]", "claude");
        await page.fill("[data-testid=composer-input]", "Write a page");
        await page.keyboard.press("Enter");
        await page.waitForSelector("[data-testid=run-status][data-running=false]", { timeout: 60_000 });
        found[`${width}: conversation`] = await seriousViolations(page);

        if (width > 400) {
          await page.click("text=Settings");
          await page.waitForSelector(".settings");
          found[`${width}: settings`] = await seriousViolations(page);
          await page.keyboard.press("Escape");
          await page.click("text=Usage");
          await page.waitForTimeout(500);
          found[`${width}: usage`] = await seriousViolations(page);
          await page.goto(`${await ui.od.signInUrl()}#/p/${project.id}`);
          await page.waitForSelector("[data-testid=rename-project]", { state: "attached" });
          await page.locator("[data-testid=project-item] .item-title").first().focus();
          await tabTo(page, "[data-testid=rename-project]");
          await page.keyboard.press("Enter");
          await page.waitForSelector("[data-testid=ask-dialog][open]");
          found[`${width}: dialog`] = await seriousViolations(page);
        }
      } finally {
        await context.close();
      }
    }
    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((view) => [view, []])));
  }, 240_000);

  test("by keyboard alone: create, rename and delete a project and a conversation; send a prompt; Esc stops the run from anywhere", async () => {
    const context = await ui.browser.newContext({ viewport: { width: 1400, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(await ui.od.signInUrl());
      await page.waitForSelector("[data-testid=composer-input]");

      await tabTo(page, "[data-testid=new-project]");
      await page.keyboard.press("Enter");
      await tabTo(page, "[data-testid=project-name]");
      await page.keyboard.type("Keyboard");
      await page.keyboard.press("Enter");
      await page.waitForSelector("[data-testid=project-item] >> text=Keyboard");

      await page.locator("[data-testid=project-item] >> text=Keyboard").focus();
      await tabTo(page, "[data-testid=rename-project]");
      await page.keyboard.press("Enter");
      await page.waitForSelector("[data-testid=ask-dialog][open]");
      expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("ask-dialog-input");
      await page.keyboard.press("Control+A");
      await page.keyboard.type("Typed only");
      await page.keyboard.press("Enter");
      await page.waitForSelector("[data-testid=project-item] >> text=Typed only");

      // A prompt, and a run that would go on for a minute: Esc with the focus away from the composer stops it.
      ui.fakes.script("claude", [{ readLine: true }, { out: initLine(temp.path) }, { hang: true }]);
      await tabTo(page, "[data-testid=composer-input]");
      await page.keyboard.type("Take your time");
      await page.keyboard.press("Enter");
      await page.waitForSelector("[data-testid=stop]");
      await tabTo(page, "[data-testid=new-conversation]");
      await page.keyboard.press("Escape");
      await page.waitForSelector("[data-testid=run-status][data-running=false][data-status=canceled]", { timeout: 30_000 });
      expect(await page.locator("[data-testid=run-announcer]").textContent()).toBe("The run was stopped.");

      await page.waitForSelector("[data-testid=conversation-item]");
      await page.locator("[data-testid=conversation-item] .item-title").first().focus();
      await tabTo(page, "[data-testid=rename-conversation]");
      await page.keyboard.press("Enter");
      await page.waitForSelector("[data-testid=ask-dialog][open]");
      await page.keyboard.press("Control+A");
      await page.keyboard.type("Renamed by keys");
      await page.keyboard.press("Enter");
      await page.waitForSelector("[data-testid=conversation-item] >> text=Renamed by keys");

      await page.locator("[data-testid=conversation-item] .item-title").first().focus();
      await tabTo(page, "[data-testid=delete-conversation]");
      await page.keyboard.press("Enter");
      await page.waitForSelector("[data-testid=ask-dialog][open]");
      // Esc in a dialog closes the dialog, nothing else.
      await page.keyboard.press("Escape");
      await page.waitForSelector("[data-testid=ask-dialog]:not([open])", { state: "attached" });
      expect(await page.locator("[data-testid=conversation-item]").count()).toBe(1);
      await page.keyboard.press("Enter"); // focus is back on the delete button
      await page.waitForSelector("[data-testid=ask-dialog][open]");
      // Closed and asked again at once: the dialog's close event, a task that comes after, must not clear the new ask.
      await page.evaluate(() => {
        (document.querySelector("[data-testid=ask-dialog]") as HTMLDialogElement).close();
        (document.querySelector("[data-testid=delete-conversation]") as HTMLButtonElement).click();
      });
      await page.waitForSelector("[data-testid=ask-dialog][open]", { timeout: 5_000 });
      await tabTo(page, "[data-testid=ask-dialog-ok]");
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => document.querySelectorAll("[data-testid=conversation-item]").length === 0);

      await page.locator("[data-testid=project-item] >> text=Typed only").focus();
      await tabTo(page, "[data-testid=remove-project]");
      await page.keyboard.press("Enter");
      await tabTo(page, "[data-testid=ask-dialog-ok]");
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => ![...document.querySelectorAll("[data-testid=project-item]")].some((item) => item.textContent?.includes("Typed only")));
    } finally {
      await context.close();
    }
  }, 180_000);
});
