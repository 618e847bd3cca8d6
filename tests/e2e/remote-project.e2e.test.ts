// Issue #36, item 1, in Chromium against the built binary: a project on another machine (the test sshd) whose agent
// exists only there. This machine has no agent CLI at all, so before the page followed the project's machine it said
// "Install a coding agent to begin … None was found on this machine" and Send stayed off. Now the picker offers the
// host's Claude Code, and a prompt sent from the page runs there and streams back.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { startTestSshd, SSH_TEST_HOST, type TestSshd } from "../support/sshd.ts";
import { tempDir } from "../support/temp.ts";
import { fakeAgentPath } from "./support/fake-agent-path.ts";
import { startUiDaemon, type UiDaemon } from "./support/ui-daemon.ts";

const TEXT_FIXTURE = join(import.meta.dir, "..", "fixtures", "claude", "text.jsonl");

describe("a remote project from the page", () => {
  const temp = tempDir("od-e2e-remote-");
  let sshd: TestSshd;
  let ui: UiDaemon;

  beforeAll(async () => {
    sshd = await startTestSshd();
    // No agent on this machine's PATH: the only Claude Code is on the host, found there through its PATH.
    ui = await startUiDaemon(temp, {}, { env: { ...sshd.env } });
  }, 120_000);

  afterAll(async () => {
    await ui?.close();
    sshd?.close();
    temp[Symbol.dispose]();
  });

  test("the picker offers the host's agent, and a prompt sent from the page streams back from there", async () => {
    const there = fakeAgentPath(join(temp.path, "host"), { claude: {} });
    there.script("claude", [{ readLine: true }, { outFile: TEXT_FIXTURE }]);
    await ui.api("/api/app-config", { method: "PUT", body: JSON.stringify({ agentCliEnv: { claude: { PATH: there.path } } }) });
    const folder = join(temp.path, "remote-app");
    mkdirSync(folder);
    const { project } = await ui.api<{ project: { id: string } }>("/api/projects", { method: "POST", body: JSON.stringify({ name: "remote", path: `ssh://${SSH_TEST_HOST}${realpathSync(folder)}` }) });
    const local = await ui.api<{ agents: Array<{ id: string; available: boolean }> }>("/api/agents");
    expect(local.agents.find((agent) => agent.id === "claude")?.available).toBe(false);

    const context = await ui.browser.newContext({ viewport: { width: 1400, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(`${await ui.od.signInUrl()}#/p/${project.id}`);
      await page.waitForSelector("[data-testid=composer-input]");
      // Detection over ssh takes a moment: the picker fills in with the host's agents.
      await page.waitForSelector("[data-testid=agent-picker] option[value=claude]:not([disabled])", { state: "attached", timeout: 240_000 });
      await page.waitForFunction((host) => document.querySelector("[data-testid=found-agents]")?.textContent?.includes(`Found on ${host}`), SSH_TEST_HOST, { timeout: 240_000 });
      expect(await page.locator("[data-testid=no-agent]").count()).toBe(0);
      await page.selectOption("[data-testid=agent-picker]", "claude");
      await page.fill("[data-testid=composer-input]", "Say hello from there");
      await page.keyboard.press("Enter");
      await page.waitForSelector("[data-testid=run-status][data-running=false][data-status=succeeded]", { timeout: 180_000 });
      expect(await page.locator("[data-testid=timeline]").textContent()).toContain("od-fake: user_messages=1");
      // It ran on the host: the fake there saw the prompt, in the project's folder.
      expect(there.ledger().some((line) => line.event === "stdin-line" && String(line.line).includes("Say hello from there"))).toBe(true);
    } finally {
      await context.close();
    }
    // Detection over ssh probes every def there, a session each: minutes on a loaded 2-core machine.
  }, 360_000);
});
