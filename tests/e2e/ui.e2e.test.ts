// The UI against the built binary, in Chromium, with fake agent CLIs on the daemon's PATH replaying real
// Claude Code wire data: Settings streaming in, a run with thinking/tool/text and a previewed file, Stop, a reload
// mid-run, a hostile HTML artifact that must get nothing from od, MCP servers edited in Settings, a skill chip and
// an uploaded image that reach what the agent receives.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { tempDir } from "../support/temp.ts";
import { initLine, writeTurnTranscript, WRITTEN_FILE } from "./support/claude-transcripts.ts";
import { startUiDaemon, type UiDaemon } from "./support/ui-daemon.ts";

const screenshots = join(import.meta.dir, "screenshots");
mkdirSync(screenshots, { recursive: true });

/** The fake that answers `--version` late, so its card must arrive after the others. */
const SLOW_AGENT = "opencode";
// Long enough that a loaded machine (the fast fake's own probes slowed to over a second) still shows the two apart.
const SLOW_VERSION_MS = 4000;

describe("the od UI in Chromium, driving fake agent CLIs", () => {
  const temp = tempDir("od-e2e-ui-");
  let ui: UiDaemon;

  beforeAll(async () => {
    // qoder's executable is `qodercli`; it takes images as `--attachment <absolute path>`. Detection first: each
    // page load then starts a fresh pass.
    ui = await startUiDaemon(temp, { claude: {}, qodercli: {}, [SLOW_AGENT]: { versionDelayMs: SLOW_VERSION_MS } }, { detectFirst: true });
  }, 90_000);

  afterAll(async () => {
    await ui?.close();
    temp[Symbol.dispose]();
  });

  /**
   * A signed-in page in a fresh context, opened on `projectId` through the URL hash: one page load of a fresh
   * one-time sign-in link (the shell e2e covers the trade itself). Collects console errors.
   */
  async function openPage(projectId?: string): Promise<{ context: BrowserContext; page: Page; consoleErrors: string[] }> {
    const context = await ui.browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    page.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));
    page.on("pageerror", (e) => consoleErrors.push(String(e)));
    await page.goto(`${await ui.od.signInUrl()}${projectId ? `#/p/${projectId}` : ""}`);
    await page.waitForFunction(() => document.querySelector("#daemon-status")?.textContent?.startsWith("connected"));
    if (projectId) {
      await page.waitForSelector(`[data-testid=project-item][data-project-id="${projectId}"].selected`);
      await page.waitForSelector("[data-testid=composer-input]");
    }
    return { context, page, consoleErrors };
  }

  async function chooseClaude(page: Page): Promise<void> {
    await page.waitForSelector('[data-testid=agent-picker] option[value=claude]:not([disabled])', { state: "attached" });
    await page.selectOption("[data-testid=agent-picker]", "claude");
  }

  async function send(page: Page, prompt: string): Promise<void> {
    await page.fill("[data-testid=composer-input]", prompt);
    await page.press("[data-testid=composer-input]", "Enter");
  }

  test("Settings: agent cards stream in as probes settle, the slow fake after the fast one, grouped", async () => {
    const context = await ui.browser.newContext({ viewport: { width: 1400, height: 1000 } });
    try {
      const page = await context.newPage();
      // Record when each card first appears, from before the app's first script runs.
      await page.addInitScript(() => {
        const seen: Array<{ id: string; group: string | null; at: number }> = [];
        (window as unknown as { cardsSeen: typeof seen }).cardsSeen = seen;
        new MutationObserver(() => {
          for (const card of document.querySelectorAll<HTMLElement>("[data-testid=agent-card]")) {
            const id = card.dataset.agentId ?? "";
            if (!seen.some((s) => s.id === id)) seen.push({ id, group: card.closest<HTMLElement>("[data-group]")?.dataset.group ?? null, at: performance.now() });
          }
        }).observe(document, { childList: true, subtree: true });
      });
      // A page load replays a pass finished in the last 30 s; a rescan started now is still running when the page
      // asks, so the page follows it live, card by card.
      const rescan = ui.api("/api/agents/rescan", { method: "POST" }).catch(() => undefined);
      await page.goto(await ui.od.signInUrl());
      await page.click("[data-testid=open-settings]");
      await page.waitForSelector("[data-testid=settings]");
      await page.waitForSelector(`[data-testid=agent-card][data-agent-id=${SLOW_AGENT}]`, { timeout: 15_000 });
      await page.waitForFunction(() => !document.querySelector("[data-testid=settings]")?.textContent?.includes("detecting…"));

      const seen = await page.evaluate(() => (window as unknown as { cardsSeen: Array<{ id: string; group: string | null; at: number }> }).cardsSeen);
      const claude = seen.find((s) => s.id === "claude");
      const slow = seen.find((s) => s.id === SLOW_AGENT);
      expect(claude?.group).toBe("Installed");
      expect(slow?.group).toBe("Installed");
      // Streamed, not painted at once: the fast fake was on screen well before the slow one answered.
      expect(slow!.at - claude!.at).toBeGreaterThan(250);

      const installed = await page.$$eval('[data-group="Installed"] [data-testid=agent-card]', (cards) => cards.map((c) => (c as HTMLElement).dataset.agentId));
      expect(installed).toContain("claude");
      expect(installed).toContain(SLOW_AGENT);
      const notInstalled = await page.$$eval('[data-group="Not installed"] [data-testid=agent-card]', (cards) => cards.map((c) => (c as HTMLElement).dataset.agentId));
      expect(notInstalled.length).toBeGreaterThan(5);
      expect(notInstalled).not.toContain("claude");
      expect(notInstalled).toContain("codex");
      await page.screenshot({ path: join(screenshots, "settings.png"), fullPage: true });
      await rescan;

      // Rescan shows how far it has got: the slow fake keeps it going for seconds, the others settle at once.
      await page.click("[data-testid=rescan]");
      await page.waitForFunction(() => /^Rescanning… [1-9]\d* of \d+$/.test(document.querySelector("[data-testid=rescan]")?.textContent ?? ""));
      await page.waitForFunction(() => document.querySelector("[data-testid=rescan]")?.textContent === "Rescan", undefined, { timeout: 20_000 });
      expect(await page.locator(`[data-group="Installed"] [data-testid=agent-card][data-agent-id=${SLOW_AGENT}]`).count()).toBe(1);
    } finally {
      await context.close();
    }
  }, 60_000);

  test("a run streams thinking, a file-write tool card and text; the file lists and previews in the sandboxed frame", async () => {
    const { context, page, consoleErrors } = await openPage();
    try {
      // The project is created through the sidebar form.
      const folder = join(temp.path, "projects", "landing");
      mkdirSync(folder, { recursive: true });
      const cwd = realpathSync(folder);
      await page.click("[data-testid=new-project]");
      // A folder that is not there is refused; typing again clears the reason.
      await page.fill("[data-testid=project-path]", join(cwd, "not-there"));
      await page.click("[data-testid=create-project]");
      await page.waitForSelector("[data-testid=sidebar] .error");
      await page.fill("[data-testid=project-path]", "");
      await page.waitForSelector("[data-testid=sidebar] .error", { state: "detached" });
      // The folder is chosen with the picker: from the folder above it, into it, then used.
      await page.fill("[data-testid=project-path]", join(cwd, ".."));
      await page.click("[data-testid=browse-folders]");
      await page.click("[data-testid=folder-item] >> text=landing");
      await page.waitForFunction((path) => document.querySelector("[data-testid=folder-current]")?.textContent === path, cwd);
      await page.click("[data-testid=folder-choose]");
      expect(await page.inputValue("[data-testid=project-path]")).toBe(cwd);
      expect(await page.inputValue("[data-testid=project-name]")).toBe("landing");
      await page.click("[data-testid=create-project]");
      await page.waitForSelector("[data-testid=project-item].selected >> text=landing");
      await page.waitForSelector("[data-testid=composer-input]");

      const turn = writeTurnTranscript(cwd, temp.path);
      // As the real CLI does it: the Write call, then the file lands, then the result.
      ui.fakes.script("claude", [
        { readLine: true },
        { outFile: turn.thinking },
        { sleep: 500 },
        { outFile: turn.toolUse },
        { sleep: 300 },
        { writeFile: { path: WRITTEN_FILE.path, content: WRITTEN_FILE.content } },
        { outFile: turn.toolResult },
        { sleep: 800 },
        { outFile: turn.answer },
      ]);
      await chooseClaude(page);
      await send(page, "Create the landing page");

      // Each part shows while the run is still going: thinking, then the tool card, then the file in the panel.
      const whileRunning = (selector: string) =>
        page.waitForFunction(
          (sel) => document.querySelector("[data-testid=run-status]")?.getAttribute("data-running") === "true" && document.querySelector(sel) !== null,
          selector,
        );
      await whileRunning("[data-testid=thinking]");
      await whileRunning("[data-testid=tool-card][data-kind=file_write]");
      await whileRunning(`[data-testid=file-item][data-path="${WRITTEN_FILE.path}"]`);
      await page.waitForSelector("[data-testid=end-banner][data-status=succeeded]");
      expect(await page.locator("[data-testid=user-message]").allTextContents()).toEqual(["Create the landing page"]);
      expect(await page.textContent("[data-testid=thinking] .thinking-text")).toBe("od-fake is thinking about the request.");
      const card = page.locator("[data-testid=tool-card]");
      expect(await card.getAttribute("data-kind")).toBe("file_write");
      expect(await card.getAttribute("data-state")).toBe("done");
      expect(await page.textContent("[data-testid=tool-file-link]")).toBe(WRITTEN_FILE.path);
      expect(await page.textContent("[data-testid=assistant-text]")).toBe(turn.answerText);
      // In order: thinking, then the tool card, then the answer.
      const order = await page.$$eval(".run > [data-testid]", (nodes) => nodes.map((n) => (n as HTMLElement).dataset.testid));
      expect(order.filter((t) => t === "thinking" || t === "tool-card" || t === "assistant-text")).toEqual(["thinking", "tool-card", "assistant-text"]);

      await page.waitForSelector(`[data-testid=file-item][data-path="${WRITTEN_FILE.path}"]`);
      await page.click("[data-testid=tool-file-link]");
      await page.waitForSelector("[data-testid=preview][data-kind=frame]");
      expect(await page.getAttribute("[data-testid=preview-frame]", "sandbox")).toBe("allow-scripts");
      const heading = page.frameLocator("[data-testid=preview-frame]").locator("h1");
      expect(await heading.textContent()).toBe("hello from od");
      await page.screenshot({ path: join(screenshots, "run.png") });

      // The conversation is in the URL: a reload shows the same finished turn from history.
      expect(page.url()).toMatch(/#\/p\/[^/]+\/c\/[^/]+$/);
      await page.reload();
      await page.waitForSelector("[data-testid=end-banner], [data-testid=assistant-text]");
      expect(await page.textContent("[data-testid=assistant-text]")).toBe(turn.answerText);
      expect(await page.textContent("[data-testid=tool-file-link]")).toBe(WRITTEN_FILE.path);
      // Chromium logs the refused POST of the folder that was not there itself; nothing else.
      expect(consoleErrors.filter((e) => !e.includes("400 (Bad Request)"))).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  test("Stop: Esc and the Stop button end a hanging run as canceled", async () => {
    const { id, path } = await ui.project("hangs");
    ui.fakes.script("claude", [{ readLine: true }, { out: initLine(path) }, { hang: true }]);
    const { context, page, consoleErrors } = await openPage(id);
    try {
      await chooseClaude(page);

      await send(page, "Take your time");
      await page.waitForSelector("[data-testid=stop]");
      await page.waitForSelector('[data-testid=run-status][data-running=true][data-status="initializing"]');
      await page.press("[data-testid=composer-input]", "Escape");
      await page.waitForSelector("[data-testid=end-banner][data-status=canceled]");
      await page.waitForSelector("[data-testid=stop]", { state: "detached" });

      await send(page, "Again, and I will press Stop");
      await page.waitForFunction(() => document.querySelectorAll("[data-testid=run-status][data-running=true]").length === 1);
      await page.click("[data-testid=stop]");
      await page.waitForFunction(() => document.querySelectorAll("[data-testid=end-banner][data-status=canceled]").length === 2);
      expect(await page.locator("[data-testid=user-message]").allTextContents()).toEqual(["Take your time", "Again, and I will press Stop"]);
      await page.screenshot({ path: join(screenshots, "canceled.png") });
      const runs = await ui.api<{ runs: Array<{ status: string }> }>(`/api/runs?projectId=${id}`);
      expect(runs.runs.map((r) => r.status)).toEqual(["canceled", "canceled"]);
      expect(consoleErrors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  test("a follow-up typed while a run streams is queued and starts when the run ends", async () => {
    const { id } = await ui.project("follow-up");
    const parts = Array.from({ length: 30 }, (_, i) => `q${i}.`);
    ui.fakes.script("claude", [{ readLine: true }, { streamDeltas: { parts, intervalMs: 50 } }]);
    const { context, page, consoleErrors } = await openPage(id);
    try {
      await chooseClaude(page);
      await send(page, "First, the header");
      await page.waitForSelector("[data-testid=run-status][data-running=true]");
      expect(await page.textContent("[data-testid=send]")).toBe("Queue");
      await send(page, "Then the footer");
      await page.waitForSelector("[data-testid=follow-up]");
      expect(await page.textContent("[data-testid=follow-up]")).toContain("Then the footer");
      expect(await page.inputValue("[data-testid=composer-input]")).toBe("");
      // Still one run while the first works; the second starts once it has ended.
      expect((await ui.api<{ runs: unknown[] }>(`/api/runs?projectId=${id}`)).runs).toHaveLength(1);
      await page.waitForFunction(() => document.querySelectorAll("[data-testid=end-banner][data-status=succeeded]").length === 2, undefined, { timeout: 30_000 });
      await page.waitForSelector("[data-testid=follow-up]", { state: "detached" });
      expect(await page.locator("[data-testid=user-message]").allTextContents()).toEqual(["First, the header", "Then the footer"]);
      expect(consoleErrors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  test("a reload mid-run resumes the stream: the answer is every delta exactly once", async () => {
    const { id } = await ui.project("reload");
    const parts = Array.from({ length: 60 }, (_, i) => `p${i}.`);
    const full = parts.join("");
    ui.fakes.script("claude", [{ readLine: true }, { streamDeltas: { parts, intervalMs: 50 } }]);
    const { context, page, consoleErrors } = await openPage(id);
    try {
      await chooseClaude(page);
      await send(page, "Count slowly");

      await page.waitForFunction(() => (document.querySelector("[data-testid=assistant-text]")?.textContent?.length ?? 0) >= 9);
      const before = (await page.textContent("[data-testid=assistant-text]")) ?? "";
      expect(full.startsWith(before)).toBe(true);
      expect(before.length).toBeLessThan(full.length); // really mid-run
      await page.reload();
      // The page came back while the run was still going and re-attached to it live.
      await page.waitForSelector("[data-testid=run-status][data-running=true]");
      await page.waitForSelector("[data-testid=end-banner][data-status=succeeded]", { timeout: 20_000 });
      expect(await page.locator("[data-testid=assistant-text]").allTextContents()).toEqual([full]);
      expect(await page.locator("[data-testid=user-message]").allTextContents()).toEqual(["Count slowly"]);
      await page.screenshot({ path: join(screenshots, "reload.png") });
      expect(consoleErrors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  test("a hostile HTML artifact previewed in the frame can reach neither od's API, its cookie nor the parent page", async () => {
    const { id, path } = await ui.project("hostile");
    // It says when it is loaded and attacks on "go", so the test can watch the frame's network from the start.
    writeFileSync(
      join(path, "evil.html"),
      `<!doctype html><body><h1>evil</h1><script>
        addEventListener("message", async () => {
          const got = {};
          try {
            const res = await fetch("/api/agents", { credentials: "include" });
            got.fetch = "status " + res.status + ": " + (await res.text()).slice(0, 200);
          } catch (e) { got.fetch = "refused: " + e.name; }
          try { got.cookie = document.cookie; } catch (e) { got.cookie = "threw: " + e.name; }
          try { got.parent = "read: " + parent.document.cookie + parent.document.title; } catch (e) { got.parent = "blocked: " + e.name; }
          try { got.storage = String(localStorage.length); } catch (e) { got.storage = "threw: " + e.name; }
          parent.postMessage({ hostile: got }, "*");
        });
        parent.postMessage({ loaded: true }, "*");
      </script></body>`,
    );
    const { context, page } = await openPage(id);
    try {
      type Inbox = { loaded: Promise<unknown>; hostile: Promise<Record<string, string>> };
      await page.evaluate(() => {
        const wait = (key: string) => new Promise((resolve) => addEventListener("message", (e) => (e.data as Record<string, unknown>)?.[key] && resolve((e.data as Record<string, unknown>)[key])));
        (window as unknown as { inbox: unknown }).inbox = { loaded: wait("loaded"), hostile: wait("hostile") };
      });
      await page.click('[data-testid=file-item][data-path="evil.html"]');
      await page.evaluate(() => (window as unknown as { inbox: Inbox }).inbox.loaded);
      const frame = page.frames().find((f) => f.url().includes("evil.html"));
      if (!frame) throw new Error("no preview frame");

      // The frame's own network, as Chromium put it on the wire (the CORS refusal hides it from the frame).
      const session = await context.newCDPSession(frame).catch(() => context.newCDPSession(page));
      const sent = new Map<string, Record<string, string>>();
      const statuses = new Map<string, number>();
      const urls = new Map<string, string>();
      session.on("Network.requestWillBeSent", (e) => urls.set(e.requestId, e.request.url));
      session.on("Network.requestWillBeSentExtraInfo", (e) => sent.set(e.requestId, e.headers as Record<string, string>));
      session.on("Network.responseReceivedExtraInfo", (e) => statuses.set(e.requestId, e.statusCode));
      await session.send("Network.enable");
      await page.evaluate(() => (document.querySelector("[data-testid=preview-frame]") as HTMLIFrameElement).contentWindow!.postMessage("go", "*"));
      const got = await page.evaluate(() => (window as unknown as { inbox: Inbox }).inbox.hostile);

      expect(got.fetch).toBe("refused: TypeError");
      expect(got.cookie === "" || got.cookie?.startsWith("threw: ")).toBe(true);
      expect(got.parent).toMatch(/^blocked: /);
      expect(got.storage).toMatch(/^threw: /);
      const agentsRequest = [...urls].find(([, url]) => new URL(url).pathname === "/api/agents")?.[0];
      if (!agentsRequest) throw new Error(`the frame's fetch was not seen: ${JSON.stringify([...urls.values()])}`);
      await waitFor(() => statuses.has(agentsRequest) && sent.has(agentsRequest));
      const headers = Object.fromEntries(Object.entries(sent.get(agentsRequest)!).map(([k, v]) => [k.toLowerCase(), v]));
      expect(headers.origin).toBe("null"); // an opaque origin
      expect(headers.cookie ?? "").not.toContain(ui.od.token); // the SameSite=Strict cookie stayed home
      expect(headers.authorization).toBeUndefined();
      expect(statuses.get(agentsRequest)).toBe(403); // and the daemon refused it
      expect(await page.frameLocator("[data-testid=preview-frame]").locator("h1").textContent()).toBe("evil");
      await page.screenshot({ path: join(screenshots, "hostile.png") });
    } finally {
      await context.close();
    }
  }, 60_000);

  test("opening Settings logs no console error; MCP servers are edited as {servers} and saved; a card's connection test runs the agent", async () => {
    const { context, page, consoleErrors } = await openPage();
    try {
      await page.click("[data-testid=open-settings]");
      await page.waitForSelector("[data-testid=mcp-settings]");
      await page.waitForFunction(() => !document.querySelector("[data-testid=settings]")?.textContent?.includes("detecting…"));
      expect(await page.locator("[data-testid=mcp-server]").count()).toBe(0);
      expect(await page.textContent("[data-testid=mcp-unsupported]")).toContain("Configure MCP in the agent's own config for:");
      // As a form: a server added, its fields filled, saved.
      await page.click("[data-testid=mcp-add]");
      await page.fill("[data-testid=mcp-name]", "e2e-files");
      await page.fill("[data-testid=mcp-command]", "mcp-files");
      await page.fill("[data-testid=mcp-args]", "--root\n.");
      await page.fill("[data-testid=mcp-env]", "FILES_TOKEN=abc");
      await page.click("[data-testid=mcp-save]");
      await page.waitForSelector("[data-testid=mcp-settings] >> text=Saved");
      const server = { name: "e2e-files", type: "stdio", command: "mcp-files", args: ["--root", "."], env: { FILES_TOKEN: "abc" } };
      expect((await ui.api<{ servers: unknown[] }>("/api/mcp")).servers).toEqual([server]);
      expect(consoleErrors).toEqual([]);
      // An invalid entry is named at its field with the daemon's reason, and nothing is stored.
      await page.fill("[data-testid=mcp-command]", "");
      await page.click("[data-testid=mcp-save]");
      await page.waitForSelector("[data-field=command] [data-testid=mcp-issue] >> text=needs a command");
      expect(await page.getAttribute("[data-testid=mcp-command]", "aria-invalid")).toBe("true");
      expect((await ui.api<{ servers: unknown[] }>("/api/mcp")).servers).toEqual([server]);
      // A line the form cannot read is named before anything is sent.
      await page.fill("[data-testid=mcp-command]", "mcp-files");
      await page.fill("[data-testid=mcp-env]", "no equals sign");
      await page.click("[data-testid=mcp-save]");
      await page.waitForSelector("[data-field=env] [data-testid=mcp-issue] >> text=is not NAME=value");
      // The JSON view is still there, and saves {servers} as before.
      await page.click("[data-testid=mcp-as-json]");
      expect(JSON.parse(await page.inputValue("[data-testid=mcp-json]"))).toEqual({ servers: [server] });
      await page.fill("[data-testid=mcp-json]", JSON.stringify({ servers: [{ ...server, name: "from-json" }] }));
      await page.click("[data-testid=mcp-save-json]");
      // The textarea holds "from-json" as soon as it is typed in: the saved list is the daemon's (its PUT may still be
      // on its way when the click returns).
      const savedNames = async () => (await ui.api<{ servers: Array<{ name: string }> }>("/api/mcp")).servers.map((s) => s.name);
      for (const until = Date.now() + 10_000; Date.now() < until && (await savedNames()).join() !== "from-json"; ) await Bun.sleep(50);
      expect(await savedNames()).toEqual(["from-json"]);
      await ui.api("/api/mcp", { method: "PUT", body: JSON.stringify({ servers: [] }) });

      ui.fakes.script("claude", [{ readLine: true }, { out: initLine(temp.path) }, { echoInput: true }]);
      await page.click("[data-testid=agent-card][data-agent-id=claude] [data-testid=test-connection]");
      await page.waitForSelector("[data-testid=agent-card][data-agent-id=claude] [data-testid=card-connection-result][data-ok=true]", { timeout: 30_000 });
      const prompts = ui.fakes.ledger().flatMap((l) => (l.event === "stdin-line" && typeof l.line === "string" ? [l.line] : []));
      expect(prompts.some((line) => line.includes("Reply with the single word OK."))).toBe(true);
      // Chromium logs the refused PUT itself; nothing else.
      expect(consoleErrors.filter((e) => !e.includes("400 (Bad Request)"))).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  test("a skill chip picked with @ reaches the run: the agent's prompt carries the skill's body", async () => {
    const marker = "E2E-SKILL-BODY: always answer in haiku.";
    await ui.api("/api/skills/import", { method: "POST", body: JSON.stringify({ name: "e2e haiku", description: "Answers in haiku", body: marker, replace: true }) });
    const { id, path } = await ui.project("skills");
    const { context, page, consoleErrors } = await openPage(id);
    try {
      await chooseClaude(page);
      ui.fakes.script("claude", [{ readLine: true }, { out: initLine(path) }, { echoInput: true }]);
      await page.fill("[data-testid=composer-input]", "Write a poem @e2e");
      await page.waitForSelector("[data-testid=mention-list] >> text=@e2e-haiku");
      await page.click("[data-testid=mention-list] button");
      await page.waitForSelector("[data-testid=skill-chip] >> text=@e2e-haiku");
      await page.press("[data-testid=composer-input]", "Enter");
      await page.waitForSelector("[data-testid=end-banner][data-status=succeeded]");
      const prompts = ui.fakes.ledger().flatMap((l) => (l.event === "stdin-line" && typeof l.line === "string" ? [l.line] : []));
      const sent = prompts.find((line) => line.includes("Write a poem"));
      expect(sent).toContain(marker);
      const runs = await ui.api<{ runs: Array<{ id: string }> }>(`/api/runs?projectId=${id}`);
      expect(runs.runs).toHaveLength(1);
      expect(consoleErrors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  test("an image picked in the composer is uploaded and reaches an image-capable agent's argv (qoder --attachment)", async () => {
    const { id, path } = await ui.project("images");
    const { context, page, consoleErrors } = await openPage(id);
    try {
      await page.waitForSelector("[data-testid=agent-picker] option[value=qoder]:not([disabled])", { state: "attached" });
      await page.selectOption("[data-testid=agent-picker]", "qoder");
      await page.setInputFiles("[data-testid=attach-input]", { name: "shot.png", mimeType: "image/png", buffer: PNG_1PX });
      await page.waitForSelector("[data-testid=attachment-chip] >> text=shot.png");
      const init = JSON.stringify({ type: "system", subtype: "init", session_id: "q-1", model: "auto", cwd: path, tools: [] });
      const answer = JSON.stringify({ type: "assistant", session_id: "q-1", message: { id: "m1", role: "assistant", content: [{ type: "text", text: "A single pixel." }] } });
      const result = JSON.stringify({ type: "result", subtype: "success", session_id: "q-1", is_error: false, result: "A single pixel.", usage: { input_tokens: 5, output_tokens: 3 } });
      ui.fakes.script("qodercli", [{ readAll: true }, { out: init }, { out: answer }, { out: result }]);
      await send(page, "What is in this image?");
      await page.waitForSelector("[data-testid=end-banner][data-status=succeeded]");
      expect(await page.textContent("[data-testid=assistant-text]")).toBe("A single pixel.");
      const argv = ui.fakes.ledger().find((l) => (l.argv as string[]).includes("-p") && l.cwd === path)?.argv as string[] | undefined;
      if (!argv) throw new Error(`qodercli was not run in ${path}: ${JSON.stringify(ui.fakes.ledger().map((l) => l.argv))}`);
      const attached = argv[argv.indexOf("--attachment") + 1]!;
      expect(attached).toStartWith(join(path, ".od", "uploads"));
      expect(attached).toEndWith(".png");
      expect(existsSync(attached)).toBe(true);
      await page.waitForSelector("[data-testid=attachment-chip]", { state: "detached" }); // sent with the message
      expect(consoleErrors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});

/** A 1×1 PNG (uploads are sniffed by their bytes). */
const PNG_1PX = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

/** Polls `condition` until it holds (5 s at most). */
async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}
