// `od serve` opening the browser, and `od open`: a fresh one-time link for the od on a data dir, with no secret on
// any command line (the browser gets the path of a private redirect page).
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { startDaemonProcess } from "../support/daemon-process.ts";
import { fakeBrowserCommand, OD_MAIN, runOd } from "../support/od-cli.ts";
import { poll } from "../support/protocol-pipes.ts";
import { tempDir } from "../support/temp.ts";

type BrowserResult = { target: string; url: string; file?: { path: string; mode: number; uid: number }; status: number; secret?: string };

const readResult = (path: string) => poll(() => existsSync(path) && (JSON.parse(readFileSync(path, "utf8")) as BrowserResult), 15_000, "the fake browser's result");

describe("signing a browser in without a secret on any command line", () => {
  test("od serve opens the browser on a 0600 redirect page in the data dir, which signs it in", async () => {
    using dir = tempDir("od-open-serve-");
    const dataDir = join(dir.path, "data");
    const result = join(dir.path, "browser.json");
    await using od = await startDaemonProcess([process.execPath, OD_MAIN, "serve", "--port", "0", "--data-dir", dataDir], { env: { BROWSER: fakeBrowserCommand(result) } });
    const opened = await readResult(result);
    expect(opened.status).toBe(201);
    expect(opened.target).not.toContain("token");
    expect(opened.target.startsWith(join(dataDir, "sign-in") + "/")).toBe(true);
    expect(opened.file).toEqual({ path: opened.target, mode: 0o600, uid: process.getuid!() });
    expect(statSync(join(dataDir, "sign-in")).mode & 0o777).toBe(0o700);
    expect(new URL(opened.url).origin).toBe(od.origin);
    // The printed code is another one, still unused.
    expect(new URL(opened.url).searchParams.get("token")).not.toBe(od.code);
    const app = await fetch(`${od.origin}/api/app-config`, { headers: { authorization: `Bearer ${opened.secret}` } });
    expect(app.status).toBe(200);
  }, 60_000);

  test("od open --print gives a fresh one-time URL of the running od; od open opens it through a redirect page", async () => {
    using dir = tempDir("od-open-cmd-");
    const dataDir = join(dir.path, "data");
    await using od = await startDaemonProcess([process.execPath, OD_MAIN, "serve", "--port", "0", "--no-open", "--data-dir", dataDir]);
    await poll(() => existsSync(join(dataDir, "daemon.json")), 15_000, "daemon.json");
    expect(statSync(join(dataDir, "daemon.json")).mode & 0o777).toBe(0o600);

    const printed = await runOd(["open", "--print", "--data-dir", dataDir]);
    expect(printed.code).toBe(0);
    const url = new URL(printed.stdout.trim());
    expect(url.origin).toBe(od.origin);
    const trade = (code: string | null) => fetch(`${od.origin}/api/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ code }) });
    expect((await trade(url.searchParams.get("token"))).status).toBe(201);
    expect((await trade(url.searchParams.get("token"))).status).toBe(401); // once

    const result = join(dir.path, "browser.json");
    // OD_DATA_DIR instead of the flag: the same od.
    const opened = await runOd(["open"], { OD_DATA_DIR: dataDir, BROWSER: fakeBrowserCommand(result) });
    expect([opened.code, opened.stderr]).toEqual([0, ""]);
    const browser = await readResult(result);
    expect(browser.status).toBe(201);
    expect(browser.file?.mode).toBe(0o600);
  }, 60_000);

  test("after od stops, od open says none is running and how to start one", async () => {
    using dir = tempDir("od-open-none-");
    const dataDir = join(dir.path, "data");
    const od = await startDaemonProcess([process.execPath, OD_MAIN, "serve", "--port", "0", "--no-open", "--data-dir", dataDir]);
    await poll(() => existsSync(join(dataDir, "daemon.json")), 15_000, "daemon.json");
    await od.stop();
    expect(existsSync(join(dataDir, "daemon.json"))).toBe(false);
    const res = await runOd(["open", "--data-dir", dataDir]);
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(`od: no od is running on ${dataDir}; start it with \`od serve --data-dir ${dataDir}\`\n`);
  }, 60_000);

  test("when no browser can be opened, od serve and od open say so on stderr with the command to run", async () => {
    using dir = tempDir("od-open-nobrowser-");
    const dataDir = join(dir.path, "data");
    const env = { BROWSER: "false" };
    await using od = await startDaemonProcess([process.execPath, OD_MAIN, "serve", "--port", "0", "--data-dir", dataDir], { env });
    const hint = `run \`od open --print --data-dir ${dataDir}\` for a sign-in URL to paste into a browser`;
    await poll(() => od.stderr().includes(hint), 15_000, "od serve's notice");
    expect(od.stderr()).toContain("od: could not open a browser (false exited with status 1)");
    const res = await runOd(["open", "--data-dir", dataDir], env);
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(`od: could not open a browser (false exited with status 1); ${hint}\n`);
  }, 60_000);
});
