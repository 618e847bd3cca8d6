/**
 * A real `od serve` process from source with a fake `copilot` (tests/fakes/fake-cli.ts) as its only agent: for tests
 * that signal, kill and restart the daemon itself. Each start reuses the same data dir, so a restart sees what the
 * last daemon left behind. The caller owns the processes: `stop()` each daemon, `killSurvivors` the agents.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startDaemonProcess, type RunningDaemon } from "./daemon-process.ts";
import { writeShim, type FakeStep } from "./fake-agents.ts";
import { tempDir } from "./temp.ts";

const root = join(import.meta.dir, "..", "..");

export type FakeAgentWorld = {
  dir: string;
  dataDir: string;
  projectDir: string;
  ledgerPath: string;
  /** Start `od serve` on port 0 over the shared data dir; `wrap` may put a parent process around it. */
  start(options?: { wrap?: (argv: string[]) => string[] }): Promise<RunningDaemon>;
  /** Register the project folder and start a copilot run; returns its id. */
  startRun(od: RunningDaemon, message?: string): Promise<string>;
  api(od: RunningDaemon, path: string, init?: RequestInit): Promise<Response>;
  [Symbol.dispose](): void;
};

export function fakeAgentWorld(steps: FakeStep[], env: Record<string, string> = {}): FakeAgentWorld {
  const temp = tempDir("od-daemon-world-");
  const bin = join(temp.path, "bin");
  const projectDir = join(temp.path, "project");
  const dataDir = join(temp.path, "data");
  const script = join(temp.path, "script.json");
  const ledgerPath = join(temp.path, "ledger.jsonl");
  mkdirSync(bin);
  mkdirSync(projectDir);
  writeShim(bin, "copilot");
  writeFileSync(script, JSON.stringify(steps));
  const api = (od: RunningDaemon, path: string, init: RequestInit = {}) =>
    fetch(`${od.origin}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${od.token}`, ...(init.body ? { "content-type": "application/json" } : {}), ...init.headers },
    });
  return {
    dir: temp.path,
    dataDir,
    projectDir,
    ledgerPath,
    start: (options = {}) => {
      const argv = [process.execPath, join(root, "server", "main.ts"), "serve", "--port", "0", "--no-open", "--data-dir", dataDir];
      return startDaemonProcess(options.wrap ? options.wrap(argv) : argv, {
        env: { PATH: `${bin}:/usr/bin:/bin`, HOME: temp.path, FAKE_CLI_SCRIPT: `@${script}`, FAKE_CLI_LEDGER: ledgerPath, ...env },
        timeoutMs: 30_000,
      });
    },
    async startRun(od, message = "hello") {
      const listed = (await (await api(od, "/api/projects")).json()) as { projects: { id: string; path: string }[] };
      const existing = listed.projects.find((project) => project.path === projectDir);
      const projectId =
        existing?.id ?? ((await (await api(od, "/api/projects", { method: "POST", body: JSON.stringify({ name: "world", path: projectDir }) })).json()) as { project: { id: string } }).project.id;
      const created = await api(od, "/api/runs", { method: "POST", body: JSON.stringify({ projectId, agentId: "copilot", message }) });
      if (created.status !== 202) throw new Error(`POST /api/runs answered ${created.status}: ${await created.text()}`);
      return ((await created.json()) as { runId: string }).runId;
    },
    api,
    [Symbol.dispose]: temp[Symbol.dispose],
  };
}
