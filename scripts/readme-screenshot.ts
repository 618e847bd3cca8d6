/**
 * Makes `docs/screenshot.png`, the README's picture: a real Claude Code run (the pinned CLI the real-CLI suite
 * installs) driven through `od serve` from the page in Chromium, against the fake model server, so it needs no
 * network and no account. The model writes a file and runs a command; the shot is the finished turn.
 *
 *   node_modules/.bin/bun run scripts/readme-screenshot.ts [--out FILE] [--width PX] [--theme light|dark]
 */
import { join } from "node:path";
import { ensureRealClis } from "../tests/realcli/setup.ts";
import { createOdSandbox } from "../tests/realcli/od-sandbox.ts";
import { startOdDaemon } from "../tests/realcli/od-http.ts";
import { launchBrowser } from "../tests/e2e/support/browser.ts";

const root = join(import.meta.dir, "..");

function flag(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1]! : fallback;
}

const out = flag("--out", join(root, "docs", "screenshot.png"));
const width = Number(flag("--width", "1440"));
const theme = flag("--theme", "light");
const PROMPT = 'Add a greeting script and run it. [[od:write-shell path=hello.sh content="echo Hello from od" cmd="sh hello.sh"]]';

await ensureRealClis({ report: (line) => console.error(line) });
const sandbox = await createOdSandbox("claude");
const daemon = await startOdDaemon(sandbox);
try {
  const auth = { authorization: `Bearer ${daemon.token}`, "content-type": "application/json" };
  const created = await fetch(`${daemon.origin}/api/projects`, { method: "POST", headers: auth, body: JSON.stringify({ name: "greeter", path: sandbox.project }) });
  const projectId = ((await created.json()) as { project: { id: string } }).project.id;
  await fetch(`${daemon.origin}/api/app-config`, { method: "PUT", headers: auth, body: JSON.stringify({ theme }) });
  await using browser = await launchBrowser();
  const page = await browser.newPage({ viewport: { width, height: Math.round(width * 0.6) }, deviceScaleFactor: 1 });
  await page.goto(`${await daemon.signInUrl()}#/p/${projectId}`);
  await page.waitForSelector('[data-testid=agent-picker] option[value=claude]:not([disabled])', { state: "attached", timeout: 60_000 });
  await page.selectOption("[data-testid=agent-picker]", "claude");
  await page.fill("[data-testid=composer-input]", PROMPT);
  await page.keyboard.press("Enter");
  await page.waitForSelector("[data-testid=run-status][data-running=true]", { timeout: 60_000 });
  await page.waitForSelector("[data-testid=run-status][data-running=false]", { timeout: 120_000 });
  await page.waitForTimeout(500);
  await page.screenshot({ path: out });
  console.log(`wrote ${out.replace(root + "/", "")}`);
} finally {
  await daemon.stop();
  await sandbox.dispose();
}
