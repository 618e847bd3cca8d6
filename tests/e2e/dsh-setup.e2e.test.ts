// The DeepSeek Harness setup dialog in Chromium against the built binary, with the fake dsh as the user's dsh:
// a setup-required DSH opens the confirm dialog (from the picker and from its Settings card); Cancel changes
// nothing (no request, no profile in DSH_HOME); Confirm installs the embedded profile, rescans, selects DSH and
// its connection test passes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { dshProfileDir } from "../../server/dsh/setup.ts";
import { tempDir } from "../support/temp.ts";
import { startUiDaemon, type UiDaemon } from "./support/ui-daemon.ts";

const screenshots = join(import.meta.dir, "screenshots");
mkdirSync(screenshots, { recursive: true });
const DSH = "deepseek-harness";

describe("DeepSeek Harness setup from the UI", () => {
  const temp = tempDir("od-e2e-dsh-setup-");
  const dshHome = join(temp.path, "dsh-home");
  let ui: UiDaemon;

  beforeAll(async () => {
    ui = await startUiDaemon(temp, {}, { fakeDshHome: dshHome });
  }, 180_000);

  afterAll(async () => {
    await ui?.close();
    temp[Symbol.dispose]();
  });

  test("setup-required → dialog → Cancel (nothing changes) → dialog → Confirm → available, selected, connection test ok", async () => {
    const agents = await ui.api<{ agents: Array<{ id: string; state: string }> }>("/api/agents");
    expect(agents.agents.find((a) => a.id === DSH)?.state).toBe("setup-required");
    const folder = join(temp.path, "project");
    mkdirSync(folder);
    const { project } = await ui.api<{ project: { id: string } }>("/api/projects", { method: "POST", body: JSON.stringify({ name: "dsh", path: realpathSync(folder) }) });

    const context = await ui.browser.newContext({ viewport: { width: 1300, height: 900 } });
    try {
      const page = await context.newPage();
      const consoleErrors: string[] = [];
      const writes: string[] = [];
      page.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));
      page.on("pageerror", (e) => consoleErrors.push(String(e)));
      page.on("request", (r) => r.method() !== "GET" && writes.push(`${r.method()} ${new URL(r.url()).pathname}`));
      await page.goto(`${await ui.od.signInUrl()}#/p/${project.id}`);
      await page.waitForSelector("[data-testid=composer-input]");

      // The picker offers it (enabled, "set up…"); choosing it opens the dialog, and Cancel sends nothing.
      await page.waitForSelector(`[data-testid=agent-picker] option[value=${DSH}][data-state=setup-required]:not([disabled])`, { state: "attached" });
      writes.length = 0; // the page load's own writes (sign-in, the agents pass) are not the dialog's
      await page.selectOption("[data-testid=agent-picker]", DSH);
      await page.waitForSelector("[data-testid=agent-setup-dialog][data-kind=confirm]");
      expect(await page.textContent("[data-testid=agent-setup-dialog]")).toContain("DSH home");
      await page.screenshot({ path: join(screenshots, "dsh-setup-confirm.png") });
      await page.click("[data-testid=setup-cancel]");
      await page.waitForSelector("[data-testid=agent-setup-dialog]", { state: "detached" });
      expect(writes).toEqual([]);
      expect(existsSync(dshProfileDir(dshHome))).toBe(false);
      expect((await ui.api<{ config: { agentId?: string } }>("/api/app-config")).config.agentId).toBeUndefined();

      // The Settings card's fix action opens the same dialog; Confirm runs it all.
      await page.click("[data-testid=open-settings]");
      await page.click(`[data-testid=agent-card][data-agent-id=${DSH}][data-state=setup-required] [data-testid=setup-agent]`);
      await page.waitForSelector("[data-testid=agent-setup-dialog][data-kind=confirm]");
      await page.click("[data-testid=setup-confirm]");
      await page.waitForSelector("[data-testid=setup-progress]");
      await page.waitForSelector("[data-testid=agent-setup-dialog][data-kind=done], [data-testid=agent-setup-dialog][data-kind=error]", { timeout: 150_000 });
      const error = await page.$("[data-testid=setup-error]");
      if (error) throw new Error(`setup failed in the UI: ${await error.textContent()}`);
      expect(await page.getAttribute("[data-testid=setup-result]", "data-action")).toBe("installed");
      expect(await page.getAttribute("[data-testid=connection-result]", "data-ok")).toBe("true");
      await page.screenshot({ path: join(screenshots, "dsh-setup-done.png") });

      expect(writes).toEqual([`POST /api/agents/${DSH}/setup`, "POST /api/agents/rescan", "PUT /api/app-config", "POST /api/test/connection"]);
      expect(existsSync(join(dshProfileDir(dshHome), "package.json"))).toBe(true);
      expect((await ui.api<{ config: { agentId?: string } }>("/api/app-config")).config.agentId).toBe(DSH);
      await page.click("[data-testid=setup-close]");
      await page.waitForSelector(`[data-testid=agent-card][data-agent-id=${DSH}][data-state=available]`);
      await page.keyboard.press("Escape");
      await page.waitForSelector("[data-testid=settings]", { state: "detached" });
      expect(await page.inputValue("[data-testid=agent-picker]")).toBe(DSH);
      expect(consoleErrors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 240_000);
});
