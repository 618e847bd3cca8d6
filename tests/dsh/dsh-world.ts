/**
 * A small od world around the fake dsh (tests/fakes/dsh): a temp PATH with a `dsh` launcher, a temp DSH_HOME, a
 * project folder, a store, and the real AgentCatalog + RunService over the deepseek-harness def only — so
 * detection, setup, runs and resume are exercised exactly as the daemon wires them, against real processes.
 */
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { packDshRuntime } from "../../scripts/pack-dsh-runtime.ts";
import type { RunEvent } from "../../server/contracts/runs.ts";
import { folderDshRuntimeSource, type DshRuntimeSource } from "../../server/dsh/embedded-runtime.ts";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { RunService } from "../../server/runs/run-service.ts";
import { AgentCatalog } from "../../server/runtimes/catalog.ts";
import { deepseekHarnessAgentDef } from "../../server/runtimes/defs/deepseek-harness.ts";
import { Store } from "../../server/store/store.ts";
import type { FakeDshScript } from "../fakes/dsh/script.ts";
import { tempDir } from "../support/temp.ts";

/** The fake dsh's launcher script (runs tests/fakes/dsh/main.ts with the repo's bun). */
export const FAKE_DSH = join(import.meta.dir, "..", "fakes", "dsh", "dsh");

/** Packs the profile once into a temp folder; returns its source and a cleanup. */
export async function packedSource(): Promise<{ source: DshRuntimeSource; dir: string; [Symbol.dispose](): void }> {
  const dir = tempDir("od-dsh-pack-");
  await packDshRuntime({ outDir: dir.path });
  return { source: folderDshRuntimeSource(dir.path), dir: dir.path, [Symbol.dispose]: () => dir[Symbol.dispose]() };
}

export type DshWorld = {
  env: Record<string, string | undefined>;
  binDir: string;
  dshHome: string;
  projectDir: string;
  store: Store;
  projectId: string;
  catalog: AgentCatalog;
  runs: RunService;
  /** Start a run and collect its events until `end`. */
  run(request: { message: string; conversationId?: string; model?: string }): Promise<{ runId: string; conversationId: string; events: RunEvent[] }>;
  /** What the fake dsh does in the next runs (through the agent's configured env, as a user would set it). */
  script(script: FakeDshScript): void;
  [Symbol.asyncDispose](): Promise<void>;
};

export function dshWorld(options: { dshOnPath?: boolean; env?: Record<string, string> } = {}): DshWorld {
  const temp = tempDir("od-dsh-world-");
  const binDir = join(temp.path, "bin");
  const dshHome = join(temp.path, "dsh-home");
  const projectDir = join(temp.path, "project");
  for (const dir of [binDir, projectDir]) mkdirSync(dir, { recursive: true });
  if (options.dshOnPath !== false) {
    writeFileSync(join(binDir, "dsh"), `#!/bin/sh\nexec "${FAKE_DSH}" "$@"\n`);
    chmodSync(join(binDir, "dsh"), 0o755);
  }
  const env: Record<string, string | undefined> = {
    PATH: `${binDir}:/usr/bin:/bin`,
    HOME: join(temp.path, "home"),
    TMPDIR: process.env.TMPDIR,
    DSH_HOME: dshHome,
    ...options.env,
  };
  const store = Store.open(join(temp.path, "od.db"), openBunSqlite);
  const defs = [deepseekHarnessAgentDef()];
  // Generous probe timeouts: every fake dsh call starts a bun process, and the test machine is shared.
  const catalog = new AgentCatalog({ defs, deps: () => ({ env, timeouts: { versionMs: 15_000, helpMs: 15_000, modelsMs: 15_000, authMs: 15_000 } }) });
  const runs = new RunService({
    store,
    defs,
    agents: { list: () => catalog.list(), capabilities: (id) => catalog.capabilities.get(id), liveModels: (id) => catalog.models(id) },
    env,
    timeouts: { cancelGraceMs: 2000 },
  });
  const project = store.projects.create("dsh", projectDir);
  return {
    env,
    binDir,
    dshHome,
    projectDir,
    store,
    projectId: project.id,
    catalog,
    runs,
    async run(request) {
      const created = await runs.create({ projectId: project.id, agentId: deepseekHarnessAgentDef().id, ...request });
      const events: RunEvent[] = [];
      for await (const event of runs.events(created.runId)) events.push(event);
      return { ...created, events };
    },
    script(script) {
      store.appConfig.update({ agentCliEnv: { [deepseekHarnessAgentDef().id]: { FAKE_DSH_SCRIPT: JSON.stringify(script) } } });
    },
    async [Symbol.asyncDispose]() {
      await runs.shutdown();
      store.close();
      temp[Symbol.dispose]();
    },
  };
}
