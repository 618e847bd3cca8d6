// Which command opens the browser, and the private redirect page it is given.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { openBrowser, openerArgv } from "../../server/cli/open-browser.ts";
import { redirectHtml, signInPagesDir, writeSignInPage } from "../../server/cli/sign-in-page.ts";
import { tempDir } from "../support/temp.ts";

describe("the browser opener", () => {
  test("$BROWSER wins (its first entry; %s stands for the target), else the platform's opener", () => {
    expect(openerArgv("/d/p.html", { BROWSER: "firefox --new-tab" }, "linux")).toEqual(["firefox", "--new-tab", "/d/p.html"]);
    expect(openerArgv("/d/p.html", { BROWSER: "chromium %s --incognito:firefox" }, "linux")).toEqual(["chromium", "/d/p.html", "--incognito"]);
    expect(openerArgv("/d/p.html", {}, "linux")).toEqual(["xdg-open", "/d/p.html"]);
    expect(openerArgv("/d/p.html", { BROWSER: " " }, "darwin")).toEqual(["open", "/d/p.html"]);
    expect(openerArgv("C:\\p.html", {}, "win32")).toEqual(["cmd", "/c", "start", "", "C:\\p.html"]);
  });

  test("an opener that fails or cannot start is reported, not thrown", async () => {
    expect(await openBrowser("/x.html", { BROWSER: "false" })).toEqual({ opened: false, reason: "false exited with status 1" });
    const missing = await openBrowser("/x.html", { BROWSER: "/nonexistent/browser" });
    expect(missing.opened).toBe(false);
    expect(await openBrowser("/x.html", { BROWSER: "true" })).toEqual({ opened: true });
  });
});

describe("the sign-in redirect page", () => {
  test("is a new 0600 file in a 0700 folder of the data dir that sends the browser to the URL", () => {
    using dir = tempDir("od-sign-in-page-");
    const url = "http://127.0.0.1:7456/?token=abc_DEF-123";
    const path = writeSignInPage(dir.path, url);
    expect(path.startsWith(signInPagesDir(dir.path) + "/")).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(signInPagesDir(dir.path)).mode & 0o777).toBe(0o700);
    expect(readFileSync(path, "utf8")).toBe(redirectHtml(url));
    expect(redirectHtml(url)).toContain(`location.replace("${url}")`);
    expect(redirectHtml('http://x/?a="</script>&b')).not.toContain("</script>&");
  });

  test("pages older than a quarter of an hour go as new ones are written", () => {
    using dir = tempDir("od-sign-in-prune-");
    const old = writeSignInPage(dir.path, "http://127.0.0.1:1/?token=old");
    const recent = writeSignInPage(dir.path, "http://127.0.0.1:1/?token=recent");
    const longAgo = (Date.now() - 16 * 60 * 1000) / 1000;
    utimesSync(old, longAgo, longAgo);
    const fresh = writeSignInPage(dir.path, "http://127.0.0.1:1/?token=fresh");
    expect(readdirSync(signInPagesDir(dir.path)).map((name) => join(signInPagesDir(dir.path), name)).sort()).toEqual([recent, fresh].sort());
  });
});
