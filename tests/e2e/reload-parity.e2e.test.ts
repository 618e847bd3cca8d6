// Issue #34 in Chromium against the built binary, with a fake Claude: a turn looks the same live and after a reload.
// A finished turn (usage with cached tokens), a run reloaded while its sub-agent works, and the same run canceled
// and reloaded: every card's data-state, the header's model and first token, and the usage line are equal before
// and after each reload, and the sub-agent cut off by the cancel shows canceled both times. A failed run's reason
// is said once, in its banner.
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { subAgentTranscript, writeTranscript } from "./support/claude-transcripts.ts";
import { claudeUiDaemonForTests } from "./support/ui-daemon.ts";

/** What a person sees of each turn that must not change with a reload (the elapsed clock aside). */
type TurnView = { cards: string[]; model: string | null; firstToken: string | null; usage: string | null; banner: string | null };

async function turnViews(page: Page): Promise<TurnView[]> {
  return page.$$eval(".run", (runs) =>
    runs.map((run) => {
      const text = (selector: string) => run.querySelector(selector)?.textContent?.trim() ?? null;
      return {
        cards: [...run.querySelectorAll("[data-testid=tool-card], [data-testid=sub-run]")].map((card) => {
          const el = card as HTMLElement;
          return `${el.dataset.testid}:${el.dataset.kind ?? el.dataset.toolId}:${el.dataset.state}`;
        }),
        model: text("[data-testid=run-model]"),
        firstToken: text("[data-testid=run-first-token]"),
        usage: text("[data-testid=usage]"),
        banner: (run.querySelector("[data-testid=end-banner]") as HTMLElement | null)?.dataset.status ?? null,
      };
    }),
  );
}

describe("live and reloaded turns in Chromium", () => {
  const { temp, ui } = claudeUiDaemonForTests("od-e2e-reload-");

  test("cards, header and usage are equal before and after a reload: finished, mid-run, and after cancel", async () => {
    const { id, path } = await ui.project("reload");
    // A finished turn whose usage reports cached tokens.
    const finished = writeTranscript(path, temp.path);
    writeFileSync(finished, readFileSync(finished, "utf8").replaceAll('"cache_read_input_tokens":0', '"cache_read_input_tokens":50'));
    const context = await ui.browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    page.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));
    page.on("pageerror", (e) => consoleErrors.push(String(e)));
    try {
      await page.goto(`${await ui.od.signInUrl()}#/p/${id}`);
      await page.waitForSelector(`[data-testid=project-item][data-project-id="${id}"].selected`);
      await page.waitForSelector('[data-testid=agent-picker] option[value=claude]:not([disabled])', { state: "attached" });
      await page.selectOption("[data-testid=agent-picker]", "claude");
      const send = async (prompt: string) => {
        await page.fill("[data-testid=composer-input]", prompt);
        await page.press("[data-testid=composer-input]", "Enter");
      };
      const reloaded = async (turns: number) => {
        await page.reload();
        await page.waitForFunction((n) => document.querySelectorAll(".run").length === n, turns);
        // History turns are `loading` until their events are in.
        await page.waitForFunction(() => ![...document.querySelectorAll("[data-testid=run-status]")].some((s) => s.getAttribute("data-status") === "loading"));
      };

      ui.fakes.script("claude", [{ readLine: true }, { outFile: finished }]);
      await send("Write the file");
      await page.waitForSelector("[data-testid=end-banner][data-status=succeeded]");
      const [done] = await turnViews(page);
      expect(done!.usage).toContain("50 cached");
      expect(done!.model).toContain("claude-opus-5-5");
      expect(done!.firstToken).toMatch(/first token \d/);
      expect(done!.cards).toEqual(["tool-card:file_write:done"]);

      // A run reloaded while its sub-agent works (its Task call has no result yet).
      const transcript = subAgentTranscript(path, temp.path);
      ui.fakes.script("claude", [{ readLine: true }, { outFile: transcript.working }, { hang: true }]);
      await send("Survey the styles with a sub-agent");
      await page.waitForSelector("[data-testid=sub-run][data-state=running] [data-testid=tool-card][data-kind=file_edit]");
      await page.waitForFunction(() => document.querySelectorAll("[data-testid=run-first-token]").length === 2);
      const midRun = await turnViews(page);
      expect(midRun[1]!.cards).toEqual(["sub-run:toolu_01TaskSurvey:running", "tool-card:command:done", "tool-card:file_edit:error"]);
      await reloaded(2);
      await page.waitForSelector("[data-testid=sub-run][data-state=running] [data-testid=tool-card][data-kind=file_edit]");
      expect(await turnViews(page)).toEqual(midRun);

      // Canceled: the unfinished sub-agent is canceled, not failed, before and after a reload.
      await page.click("[data-testid=stop]");
      await page.waitForSelector("[data-testid=end-banner][data-status=canceled]");
      const canceled = await turnViews(page);
      expect(canceled[1]!.cards).toEqual(["sub-run:toolu_01TaskSurvey:canceled", "tool-card:command:done", "tool-card:file_edit:error"]);
      expect(await page.textContent("[data-testid=sub-run-meta]")).toBe("2 calls · canceled");
      await reloaded(2);
      expect(await turnViews(page)).toEqual(canceled);
      expect(await page.textContent("[data-testid=sub-run-meta]")).toBe("2 calls · canceled");
      expect(canceled[0]).toEqual(done!);

      // A failed run says its reason once, in the banner, live and after a reload (not also as text and notices).
      ui.fakes.script("claude", [{ readLine: true }, { outFile: join(import.meta.dir, "..", "fixtures", "claude", "auth-error.synthetic.jsonl") }]);
      await send("Try without a key");
      await page.waitForSelector("[data-testid=end-banner][data-status=failed]");
      const saidInLastRun = () =>
        page.$$eval(".run", (runs) => {
          const run = runs.at(-1)!;
          return { times: run.textContent!.split("Invalid API key").length - 1, inBanner: run.querySelector("[data-testid=end-banner]")?.textContent?.includes("Invalid API key") };
        });
      expect(await saidInLastRun()).toEqual({ times: 1, inBanner: true });
      const failedViews = await turnViews(page);
      await reloaded(3);
      expect(await turnViews(page)).toEqual(failedViews);
      expect(await saidInLastRun()).toEqual({ times: 1, inBanner: true });
      expect(consoleErrors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
