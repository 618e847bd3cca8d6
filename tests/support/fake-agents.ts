/**
 * Fake agent CLIs on a temp PATH and a RunService wired to them: the engine is tested end to end against real
 * processes (tests/fakes/fake-cli.ts and the protocol fakes), never against mocks of our own code.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentInfo } from "../../server/contracts/agents.ts";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import type { PermissionMode } from "../../server/contracts/approvals.ts";
import { RunService, type RunServiceDeps } from "../../server/runs/run-service.ts";
import { createGarbagePacer, createTextMeter } from "../../server/runs/garbage-pacer.ts";
import { baseAgentDefs } from "../../server/runtimes/registry.ts";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";
import { Store } from "../../server/store/store.ts";
import type { RunEvent } from "../../server/contracts/runs.ts";
import { dataPaths } from "../../server/paths.ts";
import type { Isolation } from "../../server/contracts/worktrees.ts";
import { WorktreeService } from "../../server/worktrees/worktree-service.ts";
import { RunReverter } from "../../server/runs/run-revert.ts";
import { tempDir } from "./temp.ts";

const root = join(import.meta.dir, "..", "..");
export const FAKE_CLI = join(root, "tests", "fakes", "fake-cli.ts");
export const BUN = process.execPath;

export type FakeStep = Record<string, unknown>;

export type RunHarness = {
  service: RunService;
  store: Store;
  projectId: string;
  projectDir: string;
  binDir: string;
  ledgerPath: string;
  env: Record<string, string | undefined>;
  /** The worktrees of its isolated runs (worktrees of projects here go under its data dir). */
  worktrees: WorktreeService;
  /** Reverts finished runs' changes (`POST /api/runs/:id/revert`), on the harness's machines. */
  reverter: RunReverter;
  /** Start a run and collect all its events until `end`. */
  run(request: { agentId: string; message: string; conversationId?: string; model?: string; reasoning?: string; skillIds?: string[]; attachments?: string[]; permissionMode?: PermissionMode; isolation?: Isolation }): Promise<{ runId: string; conversationId: string; events: RunEvent[] }>;
  ledger(): Record<string, unknown>[];
  /** Replace the fake's script for the next runs. */
  script(steps: FakeStep[]): void;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
};

/** A shim named `name` in `binDir` that runs `script` with bun. */
export function writeShim(binDir: string, name: string, script: string = FAKE_CLI): void {
  const path = join(binDir, name);
  writeFileSync(path, `#!/bin/sh\nexec "${BUN}" "${script}" "$@"\n`);
  chmodSync(path, 0o755);
}

export async function runHarness(options: {
  /** Defs the harness offers, all reported available. Defaults to every registered def. */
  defs?: readonly RuntimeAgentDef[];
  /** bin name → script (default fake-cli.ts) */
  shims: Record<string, string | undefined>;
  steps?: FakeStep[];
  env?: Record<string, string>;
  timeouts?: RunServiceDeps["timeouts"];
  dataDir?: string;
  projectDir?: string;
  /** The project's stored path for its folder (e.g. an ssh:// URL of it); default the folder itself. */
  projectPath?: (projectDir: string) => string;
  /** How remote projects are reached (tests/support/sshd.ts). */
  remote?: RunServiceDeps["remote"];
  /** What detection found on remote locations (default: the run service probes them itself). */
  locations?: RunServiceDeps["locations"];
  /** Skills, MCP servers and images for the runs (default: none but the project's MCP list). */
  inputs?: RunServiceDeps["inputs"];
  /** Replaces the platform's garbage collection (to count its calls). */
  collectGarbage?: RunServiceDeps["collectGarbage"];
  /** The event text logged since the last collection (default: a meter of this harness's own, starting at 0). */
  loggedText?: RunServiceDeps["loggedText"];
  /** Collects while runs stream together (default: a pacer of this harness's own that never collects). */
  concurrentRunsPacer?: RunServiceDeps["concurrentRunsPacer"];
  /** Collects while a run streams alone (default: a pacer of this harness's own that never collects). */
  loneRunPacer?: RunServiceDeps["loneRunPacer"];
  /** Called once each run has settled (the daemon checkpoints then). */
  afterRun?: RunServiceDeps["afterRun"];
  /** How remote clean-up that did not finish is retried (default: the service's own timings). */
  remoteCleanup?: RunServiceDeps["remoteCleanup"];
}): Promise<RunHarness> {
  const temp = tempDir("od-runs-");
  const binDir = join(temp.path, "bin");
  mkdirSync(binDir);
  for (const [name, script] of Object.entries(options.shims)) writeShim(binDir, name, script);
  const projectDir = options.projectDir ?? join(temp.path, "project");
  mkdirSync(projectDir, { recursive: true });
  const dataDir = options.dataDir ?? join(temp.path, "data");
  const ledgerPath = join(temp.path, "ledger.jsonl");
  const scriptPath = join(temp.path, "script.json");
  writeFileSync(scriptPath, JSON.stringify(options.steps ?? []));
  const env: Record<string, string | undefined> = {
    PATH: `${binDir}:/usr/bin:/bin`,
    HOME: process.env.HOME,
    TMPDIR: process.env.TMPDIR,
    FAKE_CLI_SCRIPT: `@${scriptPath}`,
    FAKE_CLI_LEDGER: ledgerPath,
    ...options.env,
  };
  const store = Store.open(join(dataDir, "od.db"), openBunSqlite);
  const defs = options.defs ?? baseAgentDefs();
  const infos = defs.map((def) => ({ id: def.id, state: "available", available: true, diagnostics: [] }) as unknown as AgentInfo);
  const worktrees = new WorktreeService({ store, remote: options.remote ?? { env }, localRoot: join(dataDir, "worktrees") });
  const reverter = new RunReverter({ store, remote: options.remote ?? { env } });
  const service = new RunService({
    store,
    worktrees,
    defs,
    agents: { list: async () => infos, capabilities: () => ({}), liveModels: () => undefined },
    env,
    timeouts: options.timeouts,
    outputDir: dataPaths(dataDir).runOutput,
    ...(options.remote ? { remote: options.remote } : {}),
    ...(options.locations ? { locations: options.locations } : {}),
    ...(options.inputs ? { inputs: options.inputs } : {}),
    ...(options.collectGarbage ? { collectGarbage: options.collectGarbage } : {}),
    // Each harness its own meter: the text other tests' runs logged in this process does not decide this one's.
    loggedText: options.loggedText ?? createTextMeter(),
    concurrentRunsPacer: options.concurrentRunsPacer ?? pacerThatNeverCollects(),
    loneRunPacer: options.loneRunPacer ?? pacerThatNeverCollects(),
    ...(options.afterRun ? { afterRun: options.afterRun } : {}),
    ...(options.remoteCleanup ? { remoteCleanup: options.remoteCleanup } : {}),
  });
  const projectPath = options.projectPath?.(projectDir) ?? projectDir;
  const project = store.projects.byPath(projectPath) ?? store.projects.create("test", projectPath);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await service.shutdown();
    store.close();
    temp[Symbol.dispose]();
  };
  return {
    service,
    store,
    projectId: project.id,
    projectDir,
    binDir,
    ledgerPath,
    env,
    worktrees,
    reverter,
    async run(request) {
      const created = await service.create({ projectId: project.id, ...request });
      const events: RunEvent[] = [];
      for await (const event of service.events(created.runId)) events.push(event);
      return { ...created, events };
    },
    ledger: () => (existsSync(ledgerPath) ? readFileSync(ledgerPath, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l)) : []),
    script: (steps) => writeFileSync(scriptPath, JSON.stringify(steps)),
    close,
    [Symbol.asyncDispose]: close,
  };
}

/**
 * What a remote agent needs of the fake CLI as the user's agentCliEnv (nothing of the daemon's environment travels
 * there): its shims on PATH, its script and its ledger; `extra` adds to it.
 */
export function fakeCliEnvThere(h: Pick<RunHarness, "binDir" | "ledgerPath" | "env">, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: `${h.binDir}:/usr/bin:/bin`, FAKE_CLI_SCRIPT: h.env.FAKE_CLI_SCRIPT!, FAKE_CLI_LEDGER: h.ledgerPath, ...extra };
}

/** The agent events of a run, unwrapped. */
export function agentEvents(events: RunEvent[]) {
  return events.flatMap((e) => (e.type === "agent" ? [e.event] : []));
}

export function endOf(events: RunEvent[]) {
  const end = events.at(-1);
  if (end?.type !== "end") throw new Error(`run did not end: last event ${JSON.stringify(end)}`);
  return end;
}

/** pids of live processes whose environment carries OD_RUN_ID=<runId>. */
export function processesWithRunCookie(runId: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, "latin1");
      const stat = readFileSync(`/proc/${entry}/stat`, "latin1");
      if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) continue; // zombies are already dead
      if (environ.split("\0").includes(`OD_RUN_ID=${runId}`)) pids.push(Number(entry));
    } catch {
      // Gone or not ours to read.
    }
  }
  return pids;
}

/** A harness's own pacer: it counts, and collects only when a test passes one that does. */
function pacerThatNeverCollects() {
  return createGarbagePacer({ everyChars: Infinity, minIntervalMs: 0, collect: () => {} });
}
