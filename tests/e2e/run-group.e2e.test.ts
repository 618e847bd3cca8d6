// Issue #38 in Chromium against the built binary: "Ask several agents" sends one prompt to the fake Claude and the fake
// OpenCode; their runs stream side by side (tabs on a phone), each in its own worktree; the compare view shows both
// diffs of the same file, and Apply brings one into the checkout while the other is discarded.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { committedRepo, git } from "../support/git.ts";
import { tempDir } from "../support/temp.ts";
import { startUiDaemon, type UiDaemon } from "./support/ui-daemon.ts";

const screenshots = join(import.meta.dir, "screenshots");
mkdirSync(screenshots, { recursive: true });
const FIXTURES = join(import.meta.dir, "..", "fixtures");
describe("one prompt, two agents, in Chromium", () => {
  const temp = tempDir("od-e2e-group-");
  let ui: UiDaemon;
  beforeAll(async () => {
    ui = await startUiDaemon(temp, { claude: {}, opencode: {} });
  }, 90_000);
  afterAll(async () => {
    await ui?.close();
    temp[Symbol.dispose]();
  });

  test("streamed side by side, compared file by file, one applied and the other discarded", async () => {
    const repo = committedRepo(temp.path, "repo", { "answer.md": "# Answer\n\nnot yet\n" });
    const { project } = await ui.api<{ project: { id: string } }>("/api/projects", { method: "POST", body: JSON.stringify({ name: "repo", path: repo }) });
    const go = join(temp.path, "go");
    ui.fakes.script("claude", [
      { readLine: true },
      { writeFile: { path: "answer.md", content: "# Answer\n\nClaude says 42.\n" } },
      { waitForFile: go },
      { outFile: join(FIXTURES, "claude", "text.jsonl") },
    ]);
    ui.fakes.script("opencode", [
      { readAll: true },
      { writeFile: { path: "answer.md", content: "# Answer\n\nOpenCode says forty-two.\nWith a reason.\n" } },
      { waitForFile: go },
      { outFile: join(FIXTURES, "opencode", "text.jsonl") },
    ]);

    const context = await ui.browser.newContext({ viewport: { width: 1400, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(`${await ui.od.signInUrl()}#/p/${project.id}`);
      await page.waitForSelector("[data-testid=composer-input]");
      await page.waitForSelector("[data-testid=agent-picker] option[value=opencode]:not([disabled])", { state: "attached" });
      await page.click("[data-testid=ask-several]");
      for (const id of ["claude", "opencode"]) await page.setChecked(`[data-testid=several-agent][value=${id}]`, true);
      await page.fill("[data-testid=composer-input]", "What is the answer?");
      await page.press("[data-testid=composer-input]", "Enter");

      // Both stream at once, side by side.
      await page.waitForSelector("[data-testid=group-view]");
      await page.waitForFunction(() => document.querySelectorAll("[data-testid=group-column][data-status=running]").length === 2);
      const boxes = await page.$$eval("[data-testid=group-column]", (nodes) => nodes.map((n) => n.getBoundingClientRect().toJSON() as DOMRect));
      expect(boxes).toHaveLength(2);
      expect(Math.abs(boxes[0]!.top - boxes[1]!.top)).toBeLessThan(2);
      expect(boxes[1]!.left).toBeGreaterThan(boxes[0]!.right - 1);
      expect(git(repo, "status", "--porcelain")).toBe("");
      writeFileSync(go, "");

      // Compare: the same file, each run's diff of it.
      await page.waitForSelector('[data-testid=compare-file][data-path="answer.md"]');
      // Each run's changes arrive on their own; until then its cell says it is loading, not unchanged.
      await page.waitForFunction(() => !document.querySelector("[data-testid=compare-cell][data-kind=loading]"));
      const cells = await page.$$eval('[data-testid=compare-file][data-path="answer.md"] [data-testid=compare-cell]', (nodes) => nodes.map((n) => [(n as HTMLElement).dataset.kind, n.textContent ?? ""]));
      expect(cells.map(([kind]) => kind)).toEqual(["modified", "modified"]);
      expect(cells[0]![1]).toContain("+Claude says 42.");
      expect(cells[1]![1]).toContain("+OpenCode says forty-two.");
      expect(git(repo, "status", "--porcelain")).toBe("");
      await page.screenshot({ path: join(screenshots, "run-group-compare.png"), fullPage: true });

      const verdicts = await page.$$eval("[data-testid=group-verdict]", (nodes) => nodes.map((n) => (n as HTMLElement).dataset.runId!));
      await page.click(`[data-testid=group-verdict][data-run-id="${verdicts[1]}"] [data-testid=group-apply]`);
      await page.waitForSelector(`[data-testid=group-verdict][data-run-id="${verdicts[1]}"] [data-testid=group-applied]`);
      expect(readFileSync(join(repo, "answer.md"), "utf8")).toBe("# Answer\n\nOpenCode says forty-two.\nWith a reason.\n");
      expect(git(repo, "status", "--porcelain")).toBe(" M answer.md\n");
      await page.click("[data-testid=group-discard-others]");
      await page.waitForSelector(`[data-testid=group-verdict][data-run-id="${verdicts[0]}"][data-state=discarded]`);
      expect(git(repo, "branch", "--list", "od/*", "--format=%(refname:short)").trim().split("\n")).toHaveLength(1);

      // A reload comes back to the group, as it was left.
      expect(page.url()).toContain("/g/grp_");
      await page.reload();
      await page.waitForSelector(`[data-testid=group-verdict][data-run-id="${verdicts[1]}"] [data-testid=group-applied]`);

      // On a phone the runs are tabs: one column at a time.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.waitForSelector("[data-testid=group-tab]");
      const visible = () => page.$$eval("[data-testid=group-column]", (nodes) => nodes.map((n) => getComputedStyle(n).display !== "none"));
      expect(await visible()).toEqual([true, false]);
      await page.click("[data-testid=group-tab] >> nth=1");
      expect(await visible()).toEqual([false, true]);
      await page.screenshot({ path: join(screenshots, "run-group-phone.png") });
    } finally {
      await context.close();
    }
  }, 120_000);

  test("one run in its own worktree: the checkout untouched until Apply in the conversation", async () => {
    const repo = committedRepo(temp.path, "solo", { "notes.md": "one\n" });
    const { project } = await ui.api<{ project: { id: string } }>("/api/projects", { method: "POST", body: JSON.stringify({ name: "solo", path: repo }) });
    ui.fakes.script("claude", [{ readLine: true }, { writeFile: { path: "notes.md", content: "one\ntwo\n" } }, { outFile: join(FIXTURES, "claude", "text.jsonl") }]);
    const context = await ui.browser.newContext({ viewport: { width: 1400, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(`${await ui.od.signInUrl()}#/p/${project.id}`);
      await page.waitForSelector("[data-testid=agent-picker] option[value=claude]:not([disabled])", { state: "attached" });
      await page.selectOption("[data-testid=agent-picker]", "claude");
      await page.click("[data-testid=own-worktree]");
      await page.fill("[data-testid=composer-input]", "Add a line");
      await page.press("[data-testid=composer-input]", "Enter");
      await page.waitForSelector("[data-testid=end-banner][data-status=succeeded]");
      await page.waitForSelector("[data-testid=worktree-bar][data-state=active]");
      expect(await page.isVisible("[data-testid=own-worktree]")).toBe(false); // the conversation's isolation is set
      expect(readFileSync(join(repo, "notes.md"), "utf8")).toBe("one\n");
      await page.click("[data-testid=worktree-apply]");
      await page.waitForSelector("[data-testid=worktree-bar][data-state=applied]");
      expect(readFileSync(join(repo, "notes.md"), "utf8")).toBe("one\ntwo\n");
    } finally {
      await context.close();
    }
  }, 120_000);
});
