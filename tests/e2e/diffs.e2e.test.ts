// A run that edits a tracked file in a git repository shows what it changed as coloured unified diffs, live and
// after a reload (from history), in real Chromium against the built binary.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { committedRepo } from "../support/git.ts";
import { tempDir } from "../support/temp.ts";
import { writeTurnTranscript, WRITTEN_FILE } from "./support/claude-transcripts.ts";
import { startUiDaemon, type UiDaemon } from "./support/ui-daemon.ts";

const screenshots = join(import.meta.dir, "screenshots");
mkdirSync(screenshots, { recursive: true });
describe("per-run diffs in Chromium", () => {
  const temp = tempDir("od-e2e-diffs-");
  let ui: UiDaemon;
  beforeAll(async () => {
    ui = await startUiDaemon(temp, { claude: {} });
  }, 90_000);
  afterAll(async () => {
    await ui?.close();
    temp[Symbol.dispose]();
  });

  /** A committed repository of `files` saved as project `name`: its folder and the project's id. */
  async function repoProject(name: string, files: Record<string, string>): Promise<{ cwd: string; id: string }> {
    const cwd = committedRepo(temp.path, name, files);
    const { project } = await ui.api<{ project: { id: string } }>("/api/projects", { method: "POST", body: JSON.stringify({ name, path: cwd }) });
    return { cwd, id: project.id };
  }

  /** A signed-in page on project `id`, Claude picked, `prompt` sent. */
  async function sendOn(id: string, prompt: string): Promise<{ context: BrowserContext; page: Page }> {
    const context = await ui.browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${await ui.od.signInUrl()}#/p/${id}`);
    await page.waitForSelector("[data-testid=agent-picker] option[value=claude]:not([disabled])", { state: "attached" });
    await page.selectOption("[data-testid=agent-picker]", "claude");
    await page.fill("[data-testid=composer-input]", prompt);
    await page.press("[data-testid=composer-input]", "Enter");
    return { context, page };
  }

  test("a run that edits a tracked file and adds one shows both diffs, live and from history", async () => {
    const { cwd, id } = await repoProject("repo", { "src/app.ts": "export const greeting = 'hi';\nexport const answer = 41;\n" });
    const turn = writeTurnTranscript(cwd, temp.path);
    ui.fakes.script("claude", [
      { readLine: true },
      { outFile: turn.toolUse },
      { writeFile: { path: WRITTEN_FILE.path, content: WRITTEN_FILE.content } },
      { writeFile: { path: "src/app.ts", content: "export const greeting = 'hello';\nexport const answer = 42;\n" } },
      { outFile: turn.toolResult },
      { outFile: turn.answer },
    ]);

    const { context, page } = await sendOn(id, "Make it friendlier");
    try {

      const check = async () => {
        await page.waitForSelector('[data-testid=change][data-path="src/app.ts"]');
        expect(await page.getAttribute("[data-testid=changes]", "data-source")).toBe("git");
        const changes = await page.$$eval("[data-testid=change]", (nodes) => nodes.map((n) => [(n as HTMLElement).dataset.path, (n as HTMLElement).dataset.kind]));
        expect(changes).toEqual([[WRITTEN_FILE.path, "created"], ["src/app.ts", "modified"]]);
        const edit = page.locator('[data-testid=change][data-path="src/app.ts"]');
        expect(await edit.locator(".diff-del").allTextContents()).toEqual(["-export const greeting = 'hi';\n", "-export const answer = 41;\n"]);
        expect(await edit.locator(".diff-add").allTextContents()).toEqual(["+export const greeting = 'hello';\n", "+export const answer = 42;\n"]);
        const addColor = await edit.locator(".diff-add").first().evaluate((el) => getComputedStyle(el).backgroundColor);
        expect(addColor).not.toBe("rgba(0, 0, 0, 0)"); // coloured, not plain text
      };
      await page.waitForSelector("[data-testid=end-banner][data-status=succeeded]");
      await check();
      await page.locator('[data-testid=change][data-path="src/app.ts"]').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(screenshots, "diffs.png") });
      // Collapsible: closing the file hides its diff.
      await page.click('[data-testid=change][data-path="src/app.ts"] > summary');
      expect(await page.isVisible('[data-testid=change][data-path="src/app.ts"] [data-testid=diff]')).toBe(false);

      // From history after a reload: the reader's choice is kept, so the file is closed until opened again.
      await page.reload();
      await page.waitForSelector('[data-testid=change][data-path="src/app.ts"]');
      expect(await page.isVisible('[data-testid=change][data-path="src/app.ts"] [data-testid=diff]')).toBe(false);
      await page.click('[data-testid=change][data-path="src/app.ts"] > summary');
      await check();
    } finally {
      await context.close();
    }
  }, 90_000);

  test("a Write that overwrote a file shows the diff against what the file held, not its whole content as added", async () => {
    const { cwd, id } = await repoProject("overwrite", { [WRITTEN_FILE.path]: "<h1>hello</h1>" });
    const turn = writeTurnTranscript(cwd, temp.path);
    ui.fakes.script("claude", [{ readLine: true }, { outFile: turn.toolUse }, { writeFile: WRITTEN_FILE }, { outFile: turn.toolResult }, { outFile: turn.answer }]);
    const { context, page } = await sendOn(id, "Say it from od");
    try {
      const check = async () => {
        const card = page.locator('[data-testid=tool-card][data-kind=file_write] [data-testid=tool-diff][data-against=before-run]');
        await card.waitFor();
        expect(await card.locator("summary").textContent()).toBe("Diff against the file before the run +1 −1");
        expect(await card.locator(".diff-del").allTextContents()).toEqual(["-<h1>hello</h1>\n"]);
      };
      await page.waitForSelector("[data-testid=end-banner][data-status=succeeded]");
      await check();
      await page.reload();
      await check();
    } finally {
      await context.close();
    }
  }, 90_000);

  test("Revert in the Changes panel asks first, is refused for a file changed since, then puts the run's changes back", async () => {
    const { cwd, id } = await repoProject("revert", { "src/app.ts": "export const answer = 41;\n" });
    const turn = writeTurnTranscript(cwd, temp.path);
    ui.fakes.script("claude", [
      { readLine: true },
      { outFile: turn.toolUse },
      { writeFile: WRITTEN_FILE },
      { writeFile: { path: "src/app.ts", content: "export const answer = 42;\n" } },
      { outFile: turn.toolResult },
      { outFile: turn.answer },
    ]);
    const { context, page } = await sendOn(id, "Change the answer");
    try {
      await page.waitForSelector("[data-testid=end-banner][data-status=succeeded]");

      // Changed since the run: od refuses, names the file, and writes nothing.
      writeFileSync(join(cwd, "src/app.ts"), "export const answer = 43;\n");
      await page.click("[data-testid=revert-changes]");
      await page.waitForSelector("[data-testid=ask-dialog][open]");
      await page.click("[data-testid=ask-dialog-cancel]");
      await page.waitForSelector("[data-testid=ask-dialog]:not([open])", { state: "attached" });
      expect(existsSync(join(cwd, WRITTEN_FILE.path))).toBe(true);
      await page.click("[data-testid=revert-changes]");
      await page.click("[data-testid=ask-dialog-ok]");
      await page.waitForSelector("[data-testid=revert-error]");
      expect(await page.textContent("[data-testid=revert-error]")).toContain("src/app.ts (it changed since the run)");
      expect(existsSync(join(cwd, WRITTEN_FILE.path))).toBe(true);

      writeFileSync(join(cwd, "src/app.ts"), "export const answer = 42;\n");
      await page.click("[data-testid=revert-changes]");
      await page.click("[data-testid=ask-dialog-ok]");
      await page.waitForSelector("[data-testid=revert][data-state=done]");
      expect(readFileSync(join(cwd, "src/app.ts"), "utf8")).toBe("export const answer = 41;\n");
      expect(existsSync(join(cwd, WRITTEN_FILE.path))).toBe(false);
      await page.screenshot({ path: join(screenshots, "reverted.png") });
    } finally {
      await context.close();
    }
  }, 90_000);
});
