/**
 * What every UI e2e starts from: a copy of the built binary serving a fresh data dir under `temp`, fake agent CLIs
 * first on its PATH, one Chromium, and the two API calls the tests set up with. `close()` undoes all of it.
 */
import { afterAll, beforeAll } from "bun:test";
import { chmodSync, mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FAKE_DSH } from "../../dsh/dsh-world.ts";
import { tempDir } from "../../support/temp.ts";
import { startDaemonProcess, type RunningDaemon } from "../../support/daemon-process.ts";
import { binaryCopy } from "./binary.ts";
import { launchBrowser } from "./browser.ts";
import { fakeAgentPath, type FakeAgentOptions, type FakeAgentPath } from "./fake-agent-path.ts";

export type UiDaemon = {
  od: RunningDaemon;
  fakes: FakeAgentPath;
  browser: Awaited<ReturnType<typeof launchBrowser>>;
  dataDir: string;
  /** An authenticated JSON call; anything but 2xx throws with the answer's text. */
  api<T>(path: string, init?: RequestInit): Promise<T>;
  /** A new project folder `<temp>/projects/<name>`, registered through the API. */
  project(name: string): Promise<{ id: string; path: string }>;
  close(): Promise<void>;
};

export type UiDaemonOptions = {
  /**
   * Put the fake DeepSeek Harness on PATH as `dsh` (DSH_BIN), with `DSH_HOME` here. Without od's profile in it, it
   * is setup-required, so its setup dialog can open.
   */
  fakeDshHome?: string;
  /** Wait for the start-up detection pass, so each page load starts a fresh one. */
  detectFirst?: boolean;
  /** More environment for the daemon (e.g. `OD_SSH_CONFIG` for a test sshd). */
  env?: Record<string, string>;
};

export async function startUiDaemon(temp: { path: string }, agents: Record<string, FakeAgentOptions>, options: UiDaemonOptions = {}): Promise<UiDaemon> {
  const fakes = fakeAgentPath(temp.path, agents);
  const env: Record<string, string> = { PATH: fakes.path, ...options.env };
  if (options.fakeDshHome) {
    env.DSH_BIN = join(fakes.dir, "dsh");
    env.DSH_HOME = options.fakeDshHome;
    writeFileSync(env.DSH_BIN, `#!/bin/sh\nexec "${FAKE_DSH}" "$@"\n`, { mode: 0o755 });
  }
  const dataDir = join(temp.path, "data");
  const copy = await binaryCopy();
  chmodSync(copy.bin, 0o755);
  const od = await startDaemonProcess([copy.bin, "--port", "0", "--no-open", "--data-dir", dataDir], {
    cwd: copy.dir,
    env,
  });
  const browser = await launchBrowser();

  async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
    const res = await fetch(`${od.origin}${path}`, { ...init, headers: { authorization: `Bearer ${od.token}`, "content-type": "application/json", ...init.headers } });
    if (!res.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  }

  async function project(name: string): Promise<{ id: string; path: string }> {
    const folder = join(temp.path, "projects", name);
    mkdirSync(folder, { recursive: true });
    const created = await api<{ project: { id: string; path: string } }>("/api/projects", { method: "POST", body: JSON.stringify({ name, path: realpathSync(folder) }) });
    return created.project;
  }

  if (options.detectFirst) await api("/api/agents");
  return {
    od,
    fakes,
    browser,
    dataDir,
    api,
    project,
    async close() {
      await browser.close();
      await od.stop();
      rmSync(copy.dir, { recursive: true, force: true });
    },
  };
}

/**
 * The daemon a describe block's tests share, with a fake Claude Code and its start-up detection waited for: started
 * before them in a temp folder named `prefix…`, closed (and the folder removed) after them. `ui` is filled in once the
 * daemon has started.
 */
export function claudeUiDaemonForTests(prefix: string): { temp: { path: string }; ui: UiDaemon } {
  const temp = tempDir(prefix);
  const ui = {} as UiDaemon;
  let started = false;
  beforeAll(async () => {
    Object.assign(ui, await startUiDaemon(temp, { claude: {} }, { detectFirst: true }));
    started = true;
  }, 120_000);
  afterAll(async () => {
    if (started) await ui.close();
    temp[Symbol.dispose]();
  });
  return { temp, ui };
}
