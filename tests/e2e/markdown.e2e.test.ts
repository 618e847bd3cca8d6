// Real-looking agent answers (tests/fixtures/markdown) rendered by the UI in Chromium: a fake Claude answers each
// prompt with one of them, and the page must show tables as tables, nested lists nested, code blocks with their
// language and highlighting, and the hostile answer's markup as text that runs nothing.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { tempDir } from "../support/temp.ts";
import { answerTranscript } from "./support/claude-transcripts.ts";
import { startUiDaemon, type UiDaemon } from "./support/ui-daemon.ts";

const screenshots = join(import.meta.dir, "screenshots");
mkdirSync(screenshots, { recursive: true });
const CORPUS = join(import.meta.dir, "..", "fixtures", "markdown");
const ANSWERS = ["comparison-table", "nested-plan", "code-review", "hostile"] as const;

describe("agent Markdown in Chromium", () => {
  const temp = tempDir("od-e2e-markdown-");
  let ui: UiDaemon;
  let page: Page;
  const consoleErrors: string[] = [];
  /** Each corpus answer's rendered `[data-testid=assistant-text]`, by file name. */
  const answers = new Map<string, Locator>();

  beforeAll(async () => {
    ui = await startUiDaemon(temp, { claude: {} });
    const project = await ui.project("answers");
    const cwd = project.path;

    const context = await ui.browser.newContext({ viewport: { width: 1200, height: 900 } });
    page = await context.newPage();
    page.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));
    page.on("pageerror", (e) => consoleErrors.push(String(e)));
    await page.goto(`${await ui.od.signInUrl()}#/p/${project.id}`);
    await page.waitForSelector("[data-testid=composer-input]");
    await page.waitForSelector("[data-testid=agent-picker] option[value=claude]:not([disabled])", { state: "attached" });
    await page.selectOption("[data-testid=agent-picker]", "claude");

    // One turn per answer, in one conversation: the fake replays the answer, the page renders it.
    for (const [index, name] of ANSWERS.entries()) {
      const text = readFileSync(join(CORPUS, `${name}.md`), "utf8");
      ui.fakes.script("claude", [{ readLine: true }, { outFile: answerTranscript(cwd, text, join(temp.path, `${name}.jsonl`)) }]);
      await page.fill("[data-testid=composer-input]", `Answer ${name}`);
      await page.press("[data-testid=composer-input]", "Enter");
      await page.waitForFunction((n) => document.querySelectorAll("[data-testid=end-banner][data-status=succeeded]").length === n, index + 1, { timeout: 20_000 });
      answers.set(name, page.locator("[data-testid=assistant-text]").nth(index));
    }
  }, 120_000);

  afterAll(async () => {
    await ui?.close();
    temp[Symbol.dispose]();
  });

  const answer = (name: (typeof ANSWERS)[number]) => answers.get(name)!;

  test("a comparison table renders as a <table> with its header, rows and alignment", async () => {
    const table = answer("comparison-table").locator("table");
    expect(await table.count()).toBe(1);
    expect(await table.locator("thead th").allTextContents()).toEqual(["Option", "Reads/s", "Writes/s", "Survives restart", "Notes"]);
    expect(await table.locator("tbody tr").count()).toBe(3);
    expect(await table.locator("tbody tr").first().locator("td").allTextContents()).toEqual([
      "SQLite (WAL)",
      "48,000",
      "9,500",
      "✅",
      "Already used by server/db.ts; needs PRAGMA busy_timeout",
    ]);
    expect(await table.locator("tbody tr td").nth(1).evaluate((td) => getComputedStyle(td).textAlign)).toBe("right");
    expect(await table.locator("td code").count()).toBe(3);
    // It is laid out as a grid: the columns of every row line up with the header's.
    const lefts = await table.locator("tr").evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => Math.round(cell.getBoundingClientRect().left))));
    for (const row of lefts) expect(row).toEqual(lefts[0]!);
    expect(await answer("comparison-table").locator("ol > li > ul > li").allTextContents()).toEqual(["it is rebuilt on start anyway;", "nothing reads it across processes."]);
  }, 30_000);

  test("a nested plan keeps its levels: ol > li > ul > li > ul, task boxes, a heading and code inside an item", async () => {
    const plan = answer("nested-plan");
    expect(await plan.locator(":scope > ol > li").count()).toBe(3);
    expect(await plan.locator(":scope > ol > li > ul > li > ul > li").allTextContents()).toEqual(["rows older than 90 days → archived_at = updated_at", "everything else stays NULL"]);
    const boxes = plan.locator("li.task > input[type=checkbox]");
    expect(await boxes.count()).toBe(5);
    expect(await boxes.evaluateAll((inputs) => inputs.map((i) => [(i as HTMLInputElement).checked, (i as HTMLInputElement).disabled]))).toEqual([
      [true, true],
      [false, true],
      [false, true],
      [true, true],
      [false, true],
    ]);
    expect(await plan.locator(":scope > ol > li h3").textContent()).toBe("Sidebar");
    expect(await plan.locator(":scope > ol > li pre code.language-sql").count()).toBe(1);
    // Nested items are indented further than their parents.
    const indent = async (selector: string) => (await plan.locator(selector).first().boundingBox())!.x;
    expect(await indent(":scope > ol > li > ul > li > ul > li")).toBeGreaterThan(await indent(":scope > ol > li > ul > li"));
    expect(await indent(":scope > ol > li > ul > li")).toBeGreaterThan(await indent(":scope > ol > li"));
    expect(await plan.textContent()).not.toContain("[x]");
  }, 30_000);

  test("code blocks carry their language class and highlight; a block without a language stays plain", async () => {
    const review = answer("code-review");
    const classes = await review.locator("pre.code-block > code").evaluateAll((codes) => codes.map((c) => c.className));
    expect(classes).toEqual(["language-diff", "language-ts", "language-bash", "language-json", "language-python", ""]);
    for (const language of ["diff", "ts", "bash", "json", "python"]) expect(await review.locator(`code.language-${language} span[class^=hljs-]`).count()).toBeGreaterThan(0);
    expect(await review.locator("code.language-ts .hljs-keyword").first().textContent()).toBe("export");
    // Highlighted spans are coloured; the source text is intact.
    const keyword = review.locator("code.language-ts .hljs-keyword").first();
    const plainText = review.locator("code.language-ts");
    expect(await keyword.evaluate((el) => getComputedStyle(el).color)).not.toBe(await plainText.evaluate((el) => getComputedStyle(el).color));
    expect(await plainText.textContent()).toContain('throw new UsageError("--port must be 0-65535");');
    expect(await review.locator("pre.code-block > code:not([class])").textContent()).toContain("$ od --port 80abc");
    const links = await review.locator("a").evaluateAll((as) => as.map((a) => [a.getAttribute("href"), a.getAttribute("rel"), a.getAttribute("target")]));
    expect(links).toEqual([
      ["https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/parseInt", "noopener noreferrer nofollow", "_blank"],
      ["https://tc39.es/ecma262/#sec-parseint-string-radix", "noopener noreferrer nofollow", "_blank"],
    ]);
  }, 30_000);

  test("raw <script>, <img onerror> and javascript: links in an answer stay text and run nothing", async () => {
    const hostile = answer("hostile");
    expect(await hostile.locator("script, img, iframe, b, details").count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    const text = (await hostile.textContent()) ?? "";
    expect(text).toContain('<script>window.__pwned = "script"</script>');
    expect(text).toContain(`<img src="x" onerror="window.__pwned = 'img'">`);
    expect(await hostile.locator("table td").nth(1).textContent()).toBe(`<img src=x onerror="window.__pwned = 'cell'">`);
    expect(await hostile.locator("a").evaluateAll((as) => as.map((a) => a.getAttribute("href")))).toEqual(["https://example.com/report?id=1&view=full"]);
    const withHandlers = await hostile.locator("*").evaluateAll((els) => els.filter((el) => [...el.attributes].some((a) => a.name.startsWith("on"))).length);
    expect(withHandlers).toBe(0);
    await page.screenshot({ path: join(screenshots, "markdown.png"), fullPage: true });
    await answer("comparison-table").screenshot({ path: join(screenshots, "markdown-table.png") });
    await answer("nested-plan").screenshot({ path: join(screenshots, "markdown-plan.png") });
    await answer("code-review").screenshot({ path: join(screenshots, "markdown-code.png") });
    expect(consoleErrors).toEqual([]);
  }, 30_000);
});
