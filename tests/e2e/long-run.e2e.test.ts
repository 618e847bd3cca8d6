// Issue #40 in Chromium against the built binary, with a fake Claude: a long run opened from history keeps the DOM
// small (only rows near the viewport are in it), scrolling to the top shows its first words, and a reload puts the
// reader back where they were. Counts and positions only; nothing here is timed.
import { describe, expect, test } from "bun:test";
import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { FIRST_TEXT, lastTextOf, writeLongClaudeRun, type LongRunShape } from "../fakes/long-claude-run.ts";
import { floorPageEnded, openFloorPage } from "../../bench/support/page-floor.ts";
import type { FakeStep } from "../support/fake-agents.ts";
import { claudeUiDaemonForTests } from "./support/ui-daemon.ts";

/** 400 × (48 text deltas + a Bash call + its 10-line result): about 20k agent events and 400 tool cards. */
const SHAPE: LongRunShape = { cycles: 400, deltasPerCycle: 48, resultLines: 10 };
const DOM_LIMIT = 3_000;

/** The step number of the first tool card whose top is inside the timeline's viewport. */
function firstVisibleStep(page: Page): Promise<number> {
  return page.$eval("[data-testid=timeline]", (timeline) => {
    const top = timeline.getBoundingClientRect().top;
    const card = [...timeline.querySelectorAll("[data-testid=tool-card]")].find((el) => el.getBoundingClientRect().top >= top);
    const match = card?.textContent?.match(/ls step-(\d+)/);
    return match ? Number(match[1]) : -1;
  });
}

/**
 * The number N of the first "Question number N" whose top is in the timeline's view (2 px of rounding allowed), and
 * how far below the view's top it is.
 */
function firstQuestionInView(page: Page): Promise<{ turn: number; offset: number }> {
  return page.$eval("[data-testid=timeline]", (timeline) => {
    const top = timeline.getBoundingClientRect().top;
    const question = [...timeline.querySelectorAll("[data-testid=user-message]")].find((el) => el.getBoundingClientRect().top >= top - 2);
    return { turn: Number(/^Question number (\d+)$/.exec(question?.textContent ?? "")?.[1] ?? NaN), offset: Math.round((question?.getBoundingClientRect().top ?? NaN) - top) };
  });
}

/** A Claude turn that answers `text` and ends, as fake-cli steps. */
function claudeAnswer(text: string): Array<{ out: string }> {
  const session = "11111111-2222-3333-4444-555555555555";
  return [
    { out: JSON.stringify({ type: "system", subtype: "init", cwd: ".", session_id: session, tools: [], model: "fake-model" }) },
    { out: JSON.stringify({ type: "assistant", message: { id: "msg-1", type: "message", role: "assistant", content: [{ type: "text", text }] }, session_id: session }) },
    { out: JSON.stringify({ type: "result", subtype: "success", is_error: false, result: text, session_id: session, duration_ms: 1, num_turns: 1 }) },
  ];
}

/** Polls an async condition until it holds (no fixed sleeps). */
async function until(condition: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Two animation frames: the windowed lists have moved to the viewport and measured what they show. */
function settled(page: Page): Promise<void> {
  return page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));
}

describe("a long run in Chromium", () => {
  const { temp, ui } = claudeUiDaemonForTests("od-e2e-long-");

  /** A fresh browser context's tab, and the page errors it reports. */
  async function newTab(viewport = { width: 1400, height: 900 }) {
    const context = await ui.browser.newContext({ viewport });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (e) => pageErrors.push(String(e)));
    return { context, page, pageErrors };
  }

  /** A run of the fake Claude doing `steps` on `message`, through the API, once it has succeeded. */
  async function ranToEnd(projectId: string, message: string, steps: FakeStep[], conversationId?: string) {
    ui.fakes.script("claude", [{ readLine: true }, ...steps]);
    const created = await ui.api<{ runId: string; conversationId: string }>("/api/runs", {
      method: "POST",
      body: JSON.stringify({ projectId, agentId: "claude", message, ...(conversationId ? { conversationId } : {}) }),
    });
    await until(async () => (await ui.api<{ status: string }>(`/api/runs/${created.runId}`)).status === "succeeded");
    return created;
  }

  test("from history: the DOM stays bounded, the top shows the first words, a reload keeps the scroll position", async () => {
    const { id } = await ui.project("long");
    const transcript = join(temp.path, "long-run.jsonl");
    expect(writeLongClaudeRun(transcript, SHAPE)).toBeGreaterThanOrEqual(20_000);
    const { context, page, pageErrors } = await newTab({ width: 1400, height: 1000 });
    try {
      await page.goto(`${await ui.od.signInUrl()}#/p/${id}`);
      await page.waitForSelector(`[data-testid=project-item][data-project-id="${id}"].selected`);
      await page.waitForSelector("[data-testid=agent-picker] option[value=claude]:not([disabled])", { state: "attached" });
      await page.selectOption("[data-testid=agent-picker]", "claude");
      ui.fakes.script("claude", [{ readLine: true }, { outFile: transcript }]);
      await page.fill("[data-testid=composer-input]", "Do the long thing");
      await page.press("[data-testid=composer-input]", "Enter");
      await page.waitForSelector("[data-testid=end-banner][data-status=succeeded]", { timeout: 120_000 });

      // Opened from history: the last words are in view, and far fewer than every card is in the DOM.
      await page.reload();
      await page.waitForFunction((text) => [...document.querySelectorAll("[data-testid=assistant-text]")].some((el) => el.textContent === text), lastTextOf(SHAPE), { timeout: 60_000 });
      const elements = await page.evaluate(() => document.getElementsByTagName("*").length);
      expect(elements).toBeLessThanOrEqual(DOM_LIMIT);
      const cards = await page.locator("[data-testid=tool-card][data-state=done]").count();
      expect(cards).toBeGreaterThan(0);
      expect(cards).toBeLessThan(SHAPE.cycles);

      // Somewhere in the middle, then a reload: the same step is at the top of the viewport again.
      await page.$eval("[data-testid=timeline]", (timeline) => (timeline.scrollTop = timeline.scrollHeight / 2));
      await settled(page);
      const before = await firstVisibleStep(page);
      expect(before).toBeGreaterThan(0);
      const scrollBefore = await page.$eval("[data-testid=timeline]", (timeline) => timeline.scrollTop);
      await page.reload();
      await page.waitForFunction((text) => [...document.querySelectorAll("[data-testid=assistant-text]")].some((el) => el.textContent?.startsWith(text)), `Step ${before} `);
      await page.waitForFunction((top) => Math.abs(document.querySelector("[data-testid=timeline]")!.scrollTop - top) < 2, scrollBefore);
      await settled(page);
      expect(await firstVisibleStep(page)).toBe(before);
      expect(await page.evaluate(() => document.getElementsByTagName("*").length)).toBeLessThanOrEqual(DOM_LIMIT);

      // Scrolling to the top shows the first item, still within the bound.
      await page.$eval("[data-testid=timeline]", (timeline) => (timeline.scrollTop = 0));
      await page.waitForFunction((text) => document.querySelector("[data-testid=assistant-text]")?.textContent?.startsWith(text), FIRST_TEXT);
      expect(await page.evaluate(() => document.getElementsByTagName("*").length)).toBeLessThanOrEqual(DOM_LIMIT);
      expect(pageErrors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 300_000);

  test("a long conversation: opened at its end it fetches the turns it shows; a reload mid-way goes back to the same turn", async () => {
    const { id } = await ui.project("many-turns");
    const turns = 40;
    let conversationId: string | undefined;
    for (let i = 0; i < turns; i++) conversationId = (await ranToEnd(id, `Question number ${i}`, claudeAnswer(`Answer number ${i}.`), conversationId)).conversationId;
    const { context, page, pageErrors } = await newTab();
    const historyCalls: string[] = [];
    page.on("request", (request) => void (request.url().endsWith("/history") && historyCalls.push(request.url())));
    const answerShown = (n: number) =>
      page.waitForFunction((text) => [...document.querySelectorAll("[data-testid=assistant-text]")].some((el) => el.textContent === text), `Answer number ${n}.`, { timeout: 30_000 });
    try {
      await page.goto(`${await ui.od.signInUrl()}#/p/${id}/c/${conversationId}`);
      await answerShown(turns - 1);
      await settled(page);
      // The turns near the viewport (and its overscan), not all forty.
      expect(historyCalls.length).toBeGreaterThan(0);
      expect(historyCalls.length).toBeLessThan(turns);

      // Scrolled to the top with the wheel, as a reader does (turns arriving meanwhile do not pull it back down), the
      // first turn is fetched as it comes into view.
      const timelineBox = (await page.locator("[data-testid=timeline]").boundingBox())!;
      await page.mouse.move(timelineBox.x + timelineBox.width / 2, timelineBox.y + timelineBox.height / 2);
      await page.mouse.wheel(0, -200_000);
      await answerShown(0);

      // Somewhere in the middle, then a reload: the timeline goes back to the row that was at the top once every
      // turn's size is known, with the same question first in view, give or take one.
      await page.$eval("[data-testid=timeline]", (timeline) => (timeline.scrollTop = timeline.scrollHeight * 0.4));
      await settled(page);
      await page.waitForTimeout(400); // the scroll position is saved at most every 250 ms
      const firstQuestion = async () => (await firstQuestionInView(page)).turn;
      const spotBefore = await firstQuestionInView(page);
      const before = spotBefore.turn;
      expect(before).toBeGreaterThan(0);
      const scrollBefore = await page.$eval("[data-testid=timeline]", (timeline) => timeline.scrollTop);
      historyCalls.length = 0;
      await page.reload();
      try {
        // The place is the row that was at the top and how far into it: the same question first in view, about as far
        // down. Not the same offset: turns the page before had only guessed (never shown) may measure otherwise now.
        await until(async () => {
          await settled(page);
          const now = await firstQuestionInView(page);
          return now.turn === spotBefore.turn && Math.abs(now.offset - spotBefore.offset) <= 40;
        }, 30_000);
      } catch (error) {
        // What the page shows instead, so a failure says why the place was not gone back to.
        const shown = await page.$eval("[data-testid=timeline]", (timeline) => ({
          scrollTop: timeline.scrollTop,
          scrollHeight: timeline.scrollHeight,
          questions: [...timeline.querySelectorAll("[data-testid=user-message]")].map((el) => el.textContent),
          loadingTurns: timeline.querySelectorAll("[data-testid=run-status][data-status=loading]").length,
          saved: Object.entries(sessionStorage).filter(([key]) => key.startsWith("od.scroll.")),
        }));
        throw new Error(`the timeline did not go back to ${JSON.stringify(spotBefore)} (${scrollBefore} px): ${JSON.stringify({ shown, firstInView: await firstQuestionInView(page), historyCalls: historyCalls.length })}`, { cause: error });
      }
      await settled(page);
      await settled(page);
      expect(Math.abs((await firstQuestion()) - before)).toBeLessThanOrEqual(1);
      // Going back to a place mid-way needs every turn's size: all were fetched, each once.
      expect(new Set(historyCalls).size).toBe(turns);
      expect(historyCalls.length).toBe(turns);
      expect(pageErrors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 300_000);

  test("a reload mid-way, with long diffs opened above the place, goes back to the same turn with them still open", async () => {
    const { id, path } = await ui.project("opened-diffs");
    const turns = 24;
    const fileLines = 120;
    const session = "11111111-2222-3333-4444-555555555555";
    let conversationId: string | undefined;
    for (let i = 0; i < turns; i++) {
      const file = `gen/turn-${i}.txt`;
      const content = Array.from({ length: fileLines }, (_, line) => `turn ${i} line ${line}`).join("\n") + "\n";
      const steps: FakeStep[] = [
        { out: JSON.stringify({ type: "system", subtype: "init", cwd: path, session_id: session, tools: ["Write"], model: "fake-model" }) },
        { out: JSON.stringify({ type: "assistant", message: { id: `m-${i}`, type: "message", role: "assistant", content: [{ type: "tool_use", id: `toolu_${i}`, name: "Write", input: { file_path: join(path, file), content } }] }, session_id: session }) },
        { writeFile: { path: file, content } },
        { out: JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: `toolu_${i}`, content: "File created", is_error: false }] }, session_id: session }) },
        ...claudeAnswer(`Answer number ${i}.`),
      ];
      conversationId = (await ranToEnd(id, `Question number ${i}`, steps, conversationId)).conversationId;
    }
    const { context, page, pageErrors } = await newTab();
    const timeline = page.locator("[data-testid=timeline]");
    const writeOf = (turn: number) => page.locator("[data-testid=tool-card][data-kind=file_write]", { has: page.locator("[data-testid=tool-file-link]", { hasText: `turn-${turn}.txt` }) });
    const firstQuestion = () => firstQuestionInView(page);
    /**
     * Brings the first element matching `selector` whose text includes `text` (in turn `turn`) to the top of the view:
     * towards the turn until the timeline (windowed) has it in the DOM, then onto it until it stays there (turns
     * fetched as they near the viewport change height meanwhile).
     */
    const reveal = (selector: string, text: string, turn: number) =>
      until(async () => {
        await settled(page);
        return timeline.evaluate(
          (element, { selector, text, turn }) => {
            const row = [...element.querySelectorAll(selector)].find((candidate) => candidate.textContent?.includes(text));
            if (!row) {
              const shown = [...element.querySelectorAll("[data-testid=user-message]")].map((question) => Number(/(\d+)$/.exec(question.textContent ?? "")?.[1]));
              element.scrollTop += shown.every((number) => number < turn) ? 400 : -400;
              return false;
            }
            const off = row.getBoundingClientRect().top - element.getBoundingClientRect().top;
            if (Math.abs(off) < 2) return true;
            element.scrollTop += off;
            return false;
          },
          { selector, text, turn },
        );
      });
    try {
      await page.goto(`${await ui.od.signInUrl()}#/p/${id}/c/${conversationId}`);
      await page.waitForSelector(`text=Answer number ${turns - 1}.`);
      // The Writes of turns 8 to 11 opened (each long: closed until then), then the place below them: turn 14 at the top.
      for (let turn = 8; turn <= 11; turn++) {
        await reveal("[data-testid=tool-card][data-kind=file_write]", `turn-${turn}.txt`, turn);
        await writeOf(turn).locator("[data-testid=tool-diff] > summary").click();
        await until(async () => (await writeOf(turn).locator(".diff-line").count()) >= fileLines);
      }
      await reveal("[data-testid=user-message]", "Question number 14", 14);
      expect((await firstQuestion()).turn).toBe(14);
      await page.waitForTimeout(400); // the scroll position is saved at most every 250 ms
      const before = await firstQuestion();
      // Going back needs every turn above turn 14; the page before had guessed the ones it never fetched (0 to 7)
      // from their answers alone, so the offset it left at is not where turn 14 is once they are all in.
      await page.reload();
      await page.waitForSelector("text=Question number 14");
      await until(async () => {
        await settled(page);
        const now = await firstQuestion();
        return now.turn === before.turn && Math.abs(now.offset - before.offset) <= 40;
      }, 20_000).catch(async (error) => {
        throw new Error(`came back to ${JSON.stringify(await firstQuestion())}, left at ${JSON.stringify(before)}`, { cause: error });
      });
      // Held there while the rows around it are measured, not pulled to the bottom.
      await page.waitForTimeout(1_600);
      expect((await firstQuestion()).turn).toBe(before.turn);
      // The Writes above are open again, as the reader left them.
      await timeline.evaluate((element) => (element.scrollTop = 0));
      await reveal("[data-testid=tool-card][data-kind=file_write]", "turn-9.txt", 9);
      await until(async () => (await writeOf(9).locator(".diff-line").count()) >= fileLines);
      expect(pageErrors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 300_000);

  test("one long answer keeps only the paragraphs near the viewport in the DOM, and scrolls through all of them", async () => {
    const { id } = await ui.project("long-answer");
    const paragraphs = 3000;
    const text = Array.from({ length: paragraphs }, (_, i) => `Paragraph ${i} of the long answer, with **bold** words.`).join("\n\n");
    const transcript = join(temp.path, "long-answer.jsonl");
    writeFileSync(transcript, claudeAnswer(text).map((step) => step.out).join("\n") + "\n");
    const { conversationId } = await ranToEnd(id, "Write it all", [{ outFile: transcript }]);
    const { context, page, pageErrors } = await newTab();
    const paragraphShown = (n: number) =>
      page.waitForFunction((wanted) => [...document.querySelectorAll("[data-testid=assistant-text] p")].some((p) => p.textContent === wanted), `Paragraph ${n} of the long answer, with bold words.`, { timeout: 30_000 });
    try {
      await page.goto(`${await ui.od.signInUrl()}#/p/${id}/c/${conversationId}`);
      await paragraphShown(paragraphs - 1);
      await settled(page);
      expect(await page.evaluate(() => document.getElementsByTagName("*").length)).toBeLessThanOrEqual(DOM_LIMIT);
      expect(await page.locator("[data-testid=assistant-text] p").count()).toBeLessThan(paragraphs / 4);
      // The top of the answer, then its middle: each is there when scrolled to, and the DOM stays small.
      await page.$eval("[data-testid=timeline]", (timeline) => (timeline.scrollTop = 0));
      await paragraphShown(0);
      await page.$eval("[data-testid=timeline]", (timeline) => (timeline.scrollTop = timeline.scrollHeight / 2));
      await settled(page);
      await settled(page);
      const middle = await page.$$eval("[data-testid=assistant-text] p", (ps) => {
        const timeline = document.querySelector("[data-testid=timeline]")!.getBoundingClientRect();
        return ps.filter((p) => { const r = p.getBoundingClientRect(); return r.bottom > timeline.top && r.top < timeline.bottom; }).map((p) => Number(/Paragraph (\d+)/.exec(p.textContent ?? "")?.[1]));
      });
      expect(middle.length).toBeGreaterThan(0);
      expect(Math.min(...middle)).toBeGreaterThan(paragraphs * 0.2);
      expect(Math.max(...middle)).toBeLessThan(paragraphs * 0.8);
      expect(await page.evaluate(() => document.getElementsByTagName("*").length)).toBeLessThanOrEqual(DOM_LIMIT);
      expect(pageErrors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  test("a run of long Writes: each diff is its summary until opened, and one opened stays open when its card scrolls away and back, and after a reload", async () => {
    const { id, path } = await ui.project("long-writes");
    // More rows than a list shows whole (list-window.ts WHOLE_UP_TO): a text and a call each.
    const writes = 20;
    const fileLines = 300;
    const session = "11111111-2222-3333-4444-555555555555";
    const assistant = (content: unknown[]) => ({ out: JSON.stringify({ type: "assistant", message: { id: `m-${Math.random()}`, type: "message", role: "assistant", content }, session_id: session }) });
    const steps: FakeStep[] = [{ out: JSON.stringify({ type: "system", subtype: "init", cwd: path, session_id: session, tools: ["Write"], model: "fake-model" }) }];
    for (let i = 0; i < writes; i++) {
      const file = `gen/file-${i}.txt`;
      const content = Array.from({ length: fileLines }, (_, line) => `file ${i} line ${line}`).join("\n") + "\n";
      // Text between the calls, so the first card is far from the last.
      steps.push(assistant([{ type: "text", text: Array.from({ length: 12 }, (_, p) => `Before write ${i}, paragraph ${p}.`).join("\n\n") }]));
      steps.push(assistant([{ type: "tool_use", id: `toolu_write_${i}`, name: "Write", input: { file_path: join(path, file), content } }]));
      steps.push({ writeFile: { path: file, content } });
      steps.push({ out: JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: `toolu_write_${i}`, content: "File created", is_error: false }] }, session_id: session }) });
    }
    steps.push(...claudeAnswer("All written."));
    const { conversationId } = await ranToEnd(id, "Write the files", steps);
    const { context, page, pageErrors } = await newTab();
    const firstCard = page.locator("[data-testid=tool-card][data-kind=file_write]", { has: page.locator("[data-testid=tool-file-link]", { hasText: "file-0.txt" }) });
    try {
      await page.goto(`${await ui.od.signInUrl()}#/p/${id}/c/${conversationId}`);
      await page.waitForSelector("[data-testid=end-banner][data-status=succeeded]");
      await page.waitForSelector('[data-testid=change][data-path="gen/file-0.txt"]');
      await settled(page);
      // Every diff (a card's, a changed file's) is longer than opens by itself: their lines are not in the DOM.
      expect(await page.locator(".diff-line").count()).toBe(0);
      expect(await page.locator("[data-testid=change] [data-testid=diff]").count()).toBe(0);
      expect(await page.evaluate(() => document.getElementsByTagName("*").length)).toBeLessThanOrEqual(DOM_LIMIT);

      // A changed file's diff, opened.
      await page.click('[data-testid=change][data-path="gen/file-3.txt"] > summary');
      await page.waitForSelector('[data-testid=change][data-path="gen/file-3.txt"] [data-testid=diff]');

      // The first card's diff, opened; then the card scrolls out of the windowed list and back.
      await page.$eval("[data-testid=timeline]", (timeline) => (timeline.scrollTop = 0));
      await firstCard.locator("[data-testid=tool-diff] > summary").click();
      await until(async () => (await firstCard.locator(".diff-line").count()) === fileLines);
      await page.$eval("[data-testid=timeline]", (timeline) => (timeline.scrollTop = timeline.scrollHeight));
      await until(async () => (await firstCard.count()) === 0);
      await page.$eval("[data-testid=timeline]", (timeline) => (timeline.scrollTop = 0));
      await firstCard.waitFor();
      await settled(page);
      expect(await firstCard.locator(".diff-line").count()).toBe(fileLines);
      expect(await firstCard.locator("[data-testid=tool-diff]").getAttribute("open")).not.toBeNull();
      // Closed again by the reader: its lines leave the DOM.
      await firstCard.locator("[data-testid=tool-diff] > summary").click();
      await until(async () => (await firstCard.locator(".diff-line").count()) === 0);

      // Opened once more, then the tab reloaded: the sections are as the reader left them (the rows as tall as before).
      await firstCard.locator("[data-testid=tool-diff] > summary").click();
      await until(async () => (await firstCard.locator(".diff-line").count()) === fileLines);
      await page.reload();
      await page.waitForSelector("[data-testid=end-banner][data-status=succeeded]");
      await page.$eval("[data-testid=timeline]", (timeline) => (timeline.scrollTop = 0));
      await firstCard.waitFor();
      await until(async () => (await firstCard.locator(".diff-line").count()) === fileLines);
      await page.$eval("[data-testid=timeline]", (timeline) => (timeline.scrollTop = timeline.scrollHeight));
      await page.waitForSelector('[data-testid=change][data-path="gen/file-3.txt"] [data-testid=diff]');
      expect(await page.locator("[data-testid=change] [data-testid=diff]").count()).toBe(1);
      expect(pageErrors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  test("a project with many conversations and files lists the newest page of each, the open one, and more on request", async () => {
    const { id, path } = await ui.project("many-conversations");
    // 120 files, the oldest written first (a minute apart), so the newest are known.
    for (let i = 0; i < 120; i++) {
      const file = join(path, `page-${i}.html`);
      writeFileSync(file, `<p>${i}</p>`);
      utimesSync(file, new Date(1_700_000_000_000 + i * 60_000), new Date(1_700_000_000_000 + i * 60_000));
    }
    const ids: string[] = [];
    for (let i = 0; i < 120; i++) {
      const { conversation } = await ui.api<{ conversation: { id: string } }>(`/api/projects/${id}/conversations`, { method: "POST", body: JSON.stringify({ title: `Topic ${i}` }) });
      ids.push(conversation.id);
    }
    const { context, page } = await newTab();
    try {
      // The oldest one open: listed after the newest fifty.
      await page.goto(`${await ui.od.signInUrl()}#/p/${id}/c/${ids[0]}`);
      await page.waitForSelector(`[data-testid=conversation-item][data-conversation-id="${ids[0]}"].selected`);
      const listed = () => page.$$eval("[data-testid=conversation-item] .item-title", (items) => items.map((item) => item.textContent));
      const first = await listed();
      expect(first).toHaveLength(51);
      expect(first.slice(0, 2)).toEqual(["Topic 119", "Topic 118"]);
      expect(first.at(-1)).toBe("Topic 0");
      expect(await page.evaluate(() => document.getElementsByTagName("*").length)).toBeLessThan(DOM_LIMIT);
      await page.click("[data-testid=more-conversations]");
      await page.waitForFunction(() => document.querySelectorAll("[data-testid=conversation-item]").length === 101);
      await page.click("[data-testid=more-conversations]");
      await page.waitForFunction(() => document.querySelectorAll("[data-testid=conversation-item]").length === 120);
      expect(await page.locator("[data-testid=more-conversations]").count()).toBe(0);

      // The files panel: the fifty written last, newest first, then the rest on request.
      await page.waitForSelector("[data-testid=more-files]");
      const files = await page.$$eval("[data-testid=file-item]", (items) => items.map((item) => item.getAttribute("data-path")));
      expect(files).toHaveLength(50);
      expect(files.slice(0, 2)).toEqual(["page-119.html", "page-118.html"]);
      await page.click("[data-testid=more-files]");
      await page.click("[data-testid=more-files]");
      await page.waitForFunction(() => document.querySelectorAll("[data-testid=file-item]").length === 120);
    } finally {
      await context.close();
    }
  }, 120_000);

  test("the page benchmark's floor page shows a run as it streams: its text, each call with its result, and its end", async () => {
    const { id } = await ui.project("floor");
    const shape: LongRunShape = { cycles: 3, deltasPerCycle: 4, resultLines: 2 };
    const transcript = join(temp.path, "floor-run.jsonl");
    writeLongClaudeRun(transcript, shape);
    const gate = join(temp.path, "floor-gate");
    ui.fakes.script("claude", [{ readLine: true }, { waitForFile: gate }, { outFile: transcript }]);
    const { runId } = await ui.api<{ runId: string }>("/api/runs", { method: "POST", body: JSON.stringify({ projectId: id, agentId: "claude", message: "go" }) });
    const page = await openFloorPage(ui.browser, ui.od.origin, ui.od.token, runId, { width: 1000, height: 800 });
    try {
      writeFileSync(gate, "");
      await floorPageEnded(page, 60_000);
      await settled(page);
      const shown = await page.$eval("#timeline", (timeline) => ({
        text: timeline.textContent ?? "",
        cards: timeline.querySelectorAll(".card").length,
        results: timeline.querySelectorAll(".card pre").length,
      }));
      expect(shown.cards).toBe(shape.cycles);
      expect(shown.results).toBe(shape.cycles);
      expect(shown.text).toContain(FIRST_TEXT);
      expect(shown.text).toContain(lastTextOf(shape));
    } finally {
      await page.close();
    }
  }, 120_000);
});
