// The built binary, started the way a user starts it, opened in a real browser.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { startDaemonProcess, type RunningDaemon } from "../support/daemon-process.ts";
import { tempDir } from "../support/temp.ts";
import { binaryCopy } from "./support/binary.ts";
import { launchBrowser } from "./support/browser.ts";

const screenshots = join(import.meta.dir, "screenshots");
mkdirSync(screenshots, { recursive: true });

describe("the binary in Chromium", () => {
  const data = tempDir("od-e2e-data-");
  let od: RunningDaemon;
  let binDir: string;

  beforeAll(async () => {
    const copy = await binaryCopy();
    binDir = copy.dir;
    chmodSync(copy.bin, 0o755);
    od = await startDaemonProcess([copy.bin, "--port", "0", "--no-open", "--data-dir", data.path], { cwd: copy.dir });
  }, 60_000);

  afterAll(async () => {
    await od?.stop();
    data[Symbol.dispose]();
    if (binDir) rmSync(binDir, { recursive: true, force: true });
  });

  test("the first line is the URL with a token; the app shell renders after the token → cookie trade", async () => {
    expect(od.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=\S+$/);
    await using browser = await launchBrowser();
    const page = await browser.newPage();
    const consoleErrors: string[] = [];
    page.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));
    await page.goto(od.url);
    expect(new URL(page.url()).search).toBe(""); // the token left the address bar
    await page.waitForFunction(() => document.querySelector("#daemon-status")?.textContent?.startsWith("connected"));
    expect(await page.textContent(".brand")).toBe("od");
    expect(await page.isVisible("aside.sidebar")).toBe(true);
    expect(await page.isVisible("aside.files")).toBe(true);
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === "od_token")).toMatchObject({ httpOnly: true, sameSite: "Strict" });
    expect(await page.evaluate(() => document.cookie)).toBe(""); // HttpOnly: page scripts cannot read it
    await page.screenshot({ path: join(screenshots, "shell.png") });
    expect(consoleErrors).toEqual([]);
  }, 60_000);

  test("a page on another loopback port cannot read from or write to od", async () => {
    await using browser = await launchBrowser();
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(od.url); // the victim is signed in: the cookie is set for 127.0.0.1
    await page.waitForFunction(() => document.querySelector("#daemon-status")?.textContent?.startsWith("connected"));

    const target = od.origin;
    const evil = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: () =>
        new Response(
          `<!doctype html><body><form id="f" method="POST" action="${target}/api/app-config" enctype="text/plain">
           <input name='{"theme":"dark","x":"' value='"}'></form>
           <script>
             (async () => {
               const results = {};
               try { const r = await fetch("${target}/api/app-config", { credentials: "include" }); results.read = await r.text(); }
               catch (e) { results.read = "blocked"; }
               try { await fetch("${target}/api/app-config", { method: "PUT", mode: "no-cors", credentials: "include",
                       headers: { "content-type": "text/plain" }, body: JSON.stringify({ theme: "dark" }) }); results.write = "sent"; }
               catch (e) { results.write = "blocked"; }
               document.title = "done:" + JSON.stringify(results);
               document.getElementById("f").submit();
             })();
           </script></body>`,
          { headers: { "content-type": "text/html" } },
        ),
    });
    try {
      const attacker = await context.newPage();
      const formResponse = attacker.waitForResponse((r) => r.url().startsWith(`${target}/api/app-config`) && r.request().method() === "POST");
      await attacker.goto(`http://127.0.0.1:${evil.port}/`);
      expect((await formResponse).status()).toBe(403);
      const config = await fetch(`${target}/api/app-config`, { headers: { authorization: `Bearer ${od.token}` } });
      expect(await config.json()).toEqual({ config: {} }); // nothing changed
    } finally {
      await evil.stop(true);
    }
  }, 60_000);
});
