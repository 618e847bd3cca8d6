// Issue #19, in Chromium against the built binary: the first screen takes a prompt at once (a fresh data dir, no
// project: type, Enter, a run streams in the default project), and the layout holds from a phone to 4K — no
// sideways scroll, a composer at least 300 px wide, every dialog (Settings, the agent setup dialog, the new-project
// form) inside the viewport, the side panels reachable as drawers — with a screenshot of each.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, realpathSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { startDaemonProcess, type RunningDaemon } from "../support/daemon-process.ts";
import { tempDir } from "../support/temp.ts";
import { binaryCopy } from "./support/binary.ts";
import { launchBrowser } from "./support/browser.ts";
import { writeTurnTranscript, WRITTEN_FILE } from "./support/claude-transcripts.ts";
import { startUiDaemon, type UiDaemon } from "./support/ui-daemon.ts";

const screenshots = join(import.meta.dir, "screenshots");
mkdirSync(screenshots, { recursive: true });
const DSH = "deepseek-harness";

/** Phone, tablet, laptop as the issue names them, plus the narrowest phone and a 4K screen at 1×. */
const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 768, height: 1024 },
  { width: 1440, height: 900 },
  { width: 360, height: 640 },
  { width: 3840, height: 2160 },
];

/** The composer's pickers whose chosen label is wider than the picker shows (its text cut off). */
async function clippedPickers(page: Page): Promise<string[]> {
  return page.$$eval("[data-testid=composer] select", (selects) => {
    const context = document.createElement("canvas").getContext("2d")!;
    return selects.flatMap((element) => {
      const select = element as HTMLSelectElement;
      const style = getComputedStyle(select);
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const label = select.selectedOptions[0]?.textContent ?? "";
      // The room for the label: the box less its padding and the arrow (about 20 px).
      const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
      return context.measureText(label).width > room ? [`${label}: ${Math.round(context.measureText(label).width)} > ${Math.round(room)}`] : [];
    });
  });
}

type Box = { left: number; top: number; right: number; bottom: number; width: number };

/** What is wrong with the page's layout right now: sideways scroll anywhere, or a clipped/too narrow composer. */
async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const vw = window.innerWidth;
    const vh = window.innerHeight;
    if (document.documentElement.scrollWidth > vw) problems.push(`page scrolls sideways: ${document.documentElement.scrollWidth} > ${vw}`);
    for (const selector of [".conversation", "[data-testid=timeline]", "[data-testid=composer]", ".topbar"]) {
      const el = document.querySelector<HTMLElement>(selector);
      if (el && el.scrollWidth > el.clientWidth + 1) problems.push(`${selector} scrolls sideways: ${el.scrollWidth} > ${el.clientWidth}`);
    }
    const composer = document.querySelector("[data-testid=composer]")?.getBoundingClientRect();
    if (!composer) problems.push("no composer");
    else {
      if (composer.width < 300) problems.push(`composer only ${composer.width}px wide`);
      if (composer.left < 0 || composer.right > vw || composer.top < 0 || composer.bottom > vh) problems.push(`composer outside the viewport: ${JSON.stringify(composer)}`);
    }
    return problems;
  });
}

/** The element's box, and whether it lies inside the viewport and has no sideways scroll of its own. */
async function fitsViewport(page: Page, selector: string): Promise<{ box: Box; inside: boolean; ownScroll: boolean; overflowing: string[] }> {
  return page.$eval(selector, (el) => {
    const r = el.getBoundingClientRect();
    const box = { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width };
    const inside = r.width > 0 && r.left >= 0 && r.top >= 0 && r.right <= window.innerWidth + 0.5 && r.bottom <= window.innerHeight + 0.5;
    const ownScroll = el.scrollWidth > el.clientWidth + 1;
    // What sticks out, to say why in the failure.
    const overflowing = ownScroll
      ? [...el.querySelectorAll("*")]
          .filter((child) => child.getBoundingClientRect().right > r.right + 0.5)
          .map((child) => `${child.tagName.toLowerCase()}.${[...child.classList].join(".")}`)
          .slice(0, 5)
      : [];
    return { box, inside, ownScroll, overflowing };
  });
}

async function expectFits(page: Page, selector: string): Promise<void> {
  const fit = await fitsViewport(page, selector);
  expect({ selector, ...fit }).toEqual({ selector, box: fit.box, inside: true, ownScroll: false, overflowing: [] });
}

describe("first run and responsive layout in Chromium", () => {
  const temp = tempDir("od-e2e-responsive-");
  const dataDir = join(temp.path, "data");
  let ui: UiDaemon;

  beforeAll(async () => {
    ui = await startUiDaemon(temp, { claude: {} }, { fakeDshHome: join(temp.path, "dsh-home"), detectFirst: true });
  }, 180_000);

  afterAll(async () => {
    await ui?.close();
    temp[Symbol.dispose]();
  });

  async function openPage(viewport: { width: number; height: number }, hash = ""): Promise<{ context: BrowserContext; page: Page; consoleErrors: string[] }> {
    // Reduced motion: the drawers appear at once, so their boxes are final when measured.
    const context = await ui.browser.newContext({ viewport, reducedMotion: "reduce" });
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    page.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));
    page.on("pageerror", (e) => consoleErrors.push(String(e)));
    await page.goto(`${await ui.od.signInUrl()}${hash}`);
    await page.waitForSelector("[data-testid=composer-input]");
    await page.waitForSelector("[data-testid=agent-picker] option[value=claude]", { state: "attached" });
    return { context, page, consoleErrors };
  }

  test("first run: a fresh data dir shows the found agents and a composer; Enter starts a streaming run in a default project", async () => {
    expect((await ui.api<{ projects: unknown[] }>("/api/projects")).projects).toEqual([]);
    const parts = Array.from({ length: 30 }, (_, i) => `word${i} `);
    ui.fakes.script("claude", [{ readLine: true }, { streamDeltas: { parts, intervalMs: 60 } }]);
    const { context, page, consoleErrors } = await openPage({ width: 390, height: 844 });
    try {
      await page.waitForSelector("[data-testid=first-screen] [data-testid=found-agent][data-agent-id=claude]");
      expect(await layoutProblems(page)).toEqual([]);
      await page.screenshot({ path: join(screenshots, "first-run-390x844.png") });

      await page.fill("[data-testid=composer-input]", "Make me a landing page");
      await page.press("[data-testid=composer-input]", "Enter");
      // It streams: text arrives while the run is still going, then it ends.
      await page.waitForFunction(
        () =>
          document.querySelector("[data-testid=run-status]")?.getAttribute("data-running") === "true" &&
          (document.querySelector("[data-testid=assistant-text]")?.textContent ?? "").includes("word2"),
      );
      await page.waitForSelector("[data-testid=end-banner][data-status=succeeded]", { timeout: 20_000 });
      expect(await page.textContent("[data-testid=assistant-text]")).toBe(parts.join("").trim());
      expect(await page.locator("[data-testid=user-message]").allTextContents()).toEqual(["Make me a landing page"]);
      expect(await layoutProblems(page)).toEqual([]);
      await page.screenshot({ path: join(screenshots, "first-run-done-390x844.png") });

      const { projects } = await ui.api<{ projects: Array<{ id: string; name: string; path: string }> }>("/api/projects");
      expect(projects.map((p) => p.name)).toEqual(["My project"]);
      expect(projects[0]!.path).toBe(join(realpathSync(dataDir), "projects", "my-project"));
      const runs = await ui.api<{ runs: Array<{ status: string; agentId: string }> }>(`/api/runs?projectId=${projects[0]!.id}`);
      expect(runs.runs.map((r) => [r.agentId, r.status])).toEqual([["claude", "succeeded"]]);
      expect(page.url()).toContain(`#/p/${projects[0]!.id}/c/`);
      // The new project is in the projects drawer, selected.
      await page.click("[data-testid=toggle-projects]");
      await page.waitForSelector(`[data-testid=project-item][data-project-id="${projects[0]!.id}"].selected`, { state: "visible" });
      expect(consoleErrors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);

  test("the agent picker lists installed agents first and folds the missing ones into one option that opens their install commands", async () => {
    const { context, page } = await openPage({ width: 1440, height: 900 });
    try {
      await page.waitForSelector("[data-testid=agent-picker] [data-testid=install-more]", { state: "attached" });
      // Cards stream in as probes settle (a missing CLI settles first): the set-up one is listed once its probe has.
      await page.waitForSelector(`[data-testid=agent-picker] option[value="${DSH}"]`, { state: "attached" });
      const options = await page.$$eval("[data-testid=agent-picker] option", (list) =>
        list.map((o) => ({ value: (o as HTMLOptionElement).value, state: o.getAttribute("data-state"), disabled: (o as HTMLOptionElement).disabled })),
      );
      expect(options[0]).toEqual({ value: "claude", state: "available", disabled: false });
      expect(options.map((o) => o.value)).toEqual(["claude", DSH, "__install"]);
      expect(options.some((o) => o.disabled)).toBe(false);

      // Settings opened from there: installed first, the missing ones one collapsed group, expanded this time.
      await page.selectOption("[data-testid=agent-picker]", "__install");
      await page.waitForSelector("[data-testid=settings] [data-testid=not-installed][open]");
      expect(await page.inputValue("[data-testid=agent-picker]")).toBe("claude");
      const groups = await page.$$eval("[data-testid=settings] [data-group]", (list) => list.map((g) => (g as HTMLElement).dataset.group));
      expect(groups).toEqual(["Installed", "Setup required", "Not installed"]);
      const codexCommand = page.locator("[data-testid=agent-card][data-agent-id=codex] .missing-head [data-testid=copy-command]");
      expect(await codexCommand.isVisible()).toBe(true);
      expect(await codexCommand.textContent()).toContain("codex");
      await page.screenshot({ path: join(screenshots, "settings-install-more.png") });
      await page.keyboard.press("Escape");
      // Opened from the top bar, the group is collapsed: a demanding user sees the installed agents, not 27 cards.
      await page.click("[data-testid=open-settings]");
      await page.waitForSelector("[data-testid=settings] [data-testid=not-installed]");
      expect(await page.$("[data-testid=settings] [data-testid=not-installed][open]")).toBeNull();
      expect(await codexCommand.isVisible()).toBe(false);
      const firstCard = await page.$eval("[data-testid=settings] [data-testid=agent-card]", (c) => (c as HTMLElement).dataset.agentId);
      expect(firstCard).toBe("claude");
      await page.screenshot({ path: join(screenshots, "settings-collapsed.png") });
    } finally {
      await context.close();
    }
  }, 60_000);

  for (const viewport of VIEWPORTS) {
    const size = `${viewport.width}x${viewport.height}`;
    test(`${size}: no sideways scroll, a wide composer, drawers and dialogs inside the viewport`, async () => {
      const folder = join(temp.path, "projects", `layout-${size}`);
      mkdirSync(folder, { recursive: true });
      const cwd = realpathSync(folder);
      const { project } = await ui.api<{ project: { id: string } }>("/api/projects", { method: "POST", body: JSON.stringify({ name: `A project with a rather long name ${size}`, path: cwd }) });
      const turn = writeTurnTranscript(cwd, temp.path);
      ui.fakes.script("claude", [
        { readLine: true },
        { outFile: turn.thinking },
        { outFile: turn.toolUse },
        { writeFile: { path: WRITTEN_FILE.path, content: WRITTEN_FILE.content } },
        { outFile: turn.toolResult },
        { outFile: turn.answer },
      ]);
      const { context, page, consoleErrors } = await openPage(viewport, `#/p/${project.id}`);
      try {
        expect(await layoutProblems(page)).toEqual([]);
        await page.fill("[data-testid=composer-input]", "Create the landing page, with a headline and a paragraph that explains the product.");
        await page.press("[data-testid=composer-input]", "Enter");
        await page.waitForSelector("[data-testid=end-banner][data-status=succeeded]", { timeout: 20_000 });
        expect(await layoutProblems(page)).toEqual([]);
        expect(await clippedPickers(page)).toEqual([]);
        await page.screenshot({ path: join(screenshots, `${size}-conversation.png`) });

        // The file the run wrote opens in the files panel: a column on wide screens, a drawer on narrow ones.
        await page.click("[data-testid=tool-file-link]");
        await page.waitForSelector("[data-testid=preview][data-kind=frame]", { state: "visible" });
        await page.frameLocator("[data-testid=preview-frame]").locator("h1").waitFor();
        await expectFits(page, "[data-testid=files-panel]");
        await page.screenshot({ path: join(screenshots, `${size}-files.png`) });
        const filesIsDrawer = await page.isVisible("[data-testid=toggle-files]");
        expect(filesIsDrawer).toBe(viewport.width < 1100);
        if (filesIsDrawer) {
          await page.click("[data-testid=toggle-files]");
          await page.waitForSelector("[data-testid=files-panel]", { state: "hidden" });
        }

        // The projects sidebar, and its new-project form.
        const projectsIsDrawer = await page.isVisible("[data-testid=toggle-projects]");
        expect(projectsIsDrawer).toBe(viewport.width < 720);
        if (projectsIsDrawer) await page.click("[data-testid=toggle-projects]");
        await page.click("[data-testid=new-project]");
        await page.waitForSelector("[data-testid=new-project-form]", { state: "visible" });
        await expectFits(page, "[data-testid=sidebar]");
        await expectFits(page, "[data-testid=new-project-form]");
        await page.screenshot({ path: join(screenshots, `${size}-new-project.png`) });
        await page.click("[data-testid=new-project]");
        if (projectsIsDrawer) {
          await page.click(`[data-testid=project-item][data-project-id="${project.id}"] .item-title`);
          await page.waitForSelector("[data-testid=sidebar]", { state: "hidden" });
        }
        expect(await layoutProblems(page)).toEqual([]);

        await page.click("[data-testid=open-settings]");
        await page.waitForSelector("[data-testid=settings] [data-testid=agent-card][data-agent-id=claude]");
        // With the widest parts open too: a card's defaults and env editor, the missing agents' install commands.
        await page.click("[data-testid=agent-card][data-agent-id=claude] details > summary");
        await page.click("[data-testid=not-installed] > summary");
        await page.waitForSelector("[data-testid=agent-card][data-agent-id=codex] .missing-head [data-testid=copy-command]", { state: "visible" });
        await expectFits(page, "[data-testid=settings]");
        await page.screenshot({ path: join(screenshots, `${size}-settings.png`) });
        await page.keyboard.press("Escape");
        await page.waitForSelector("[data-testid=settings]", { state: "detached" });

        // Usage, with the run above in its table: on a phone each run is a card, never a table wider than the screen.
        await page.click("[data-testid=open-usage]");
        await page.waitForSelector("[data-testid=usage-row]");
        await expectFits(page, "[data-testid=usage-view]");
        expect(await page.$eval(".usage-table-wrap", (wrap) => wrap.scrollWidth <= wrap.clientWidth + 1)).toBe(true);
        await page.screenshot({ path: join(screenshots, `${size}-usage.png`) });
        await page.keyboard.press("Escape");
        await page.waitForSelector("[data-testid=usage-view]", { state: "detached" });

        await page.selectOption("[data-testid=agent-picker]", DSH);
        await page.waitForSelector("[data-testid=agent-setup-dialog][data-kind=confirm]");
        await expectFits(page, "[data-testid=agent-setup-dialog]");
        await page.screenshot({ path: join(screenshots, `${size}-setup.png`) });
        await page.click("[data-testid=setup-cancel]");
        await page.waitForSelector("[data-testid=agent-setup-dialog]", { state: "detached" });
        expect(consoleErrors).toEqual([]);
      } finally {
        await context.close();
      }

      // A page that is not signed in says so, inside the viewport too.
      const stranger = await ui.browser.newContext({ viewport });
      try {
        const page = await stranger.newPage();
        await page.goto(ui.od.origin);
        await page.waitForSelector("[data-testid=signed-out]");
        await expectFits(page, "[data-testid=signed-out]");
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        await page.screenshot({ path: join(screenshots, `${size}-signed-out.png`) });
      } finally {
        await stranger.close();
      }
    }, 90_000);
  }
});

describe("no agent installed, on a phone", () => {
  const temp = tempDir("od-e2e-no-agent-");
  let od: RunningDaemon;
  let binDir: string;

  beforeAll(async () => {
    const empty = join(temp.path, "bin");
    mkdirSync(empty, { recursive: true });
    const copy = await binaryCopy();
    binDir = copy.dir;
    chmodSync(copy.bin, 0o755);
    // Nothing on PATH: detection finds no agent CLI.
    od = await startDaemonProcess([copy.bin, "--port", "0", "--no-open", "--data-dir", join(temp.path, "data")], { cwd: copy.dir, env: { PATH: empty } });
  }, 180_000);

  afterAll(async () => {
    await od?.stop();
    temp[Symbol.dispose]();
    if (binDir) rmSync(binDir, { recursive: true, force: true });
  });

  test("390x844: the install guidance and the composer both show, inside the viewport", async () => {
    await using browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, reducedMotion: "reduce" });
    const page = await context.newPage();
    await page.goto(await od.signInUrl());
    await page.waitForSelector("[data-testid=no-agent] [data-testid=copy-command]");
    await page.waitForSelector("[data-testid=composer-input]");
    expect(await layoutProblems(page)).toEqual([]);
    await expectFits(page, "[data-testid=no-agent]");
    expect(await page.isDisabled("[data-testid=send]")).toBe(true);
    await page.screenshot({ path: join(screenshots, "no-agent-390x844.png") });
  }, 60_000);
});
