/**
 * One sandbox per real CLI for driving it THROUGH od: a fresh HOME with the recipe's config files, a fresh od data
 * dir, a temp project folder, a fake model server of its own, and the environment `od run` / `od serve` get.
 *
 * od finds the CLI the way it would on a user's machine: the shipped def's `<ID>_BIN` override points at the
 * recipe's real entry point, behind a shim that runs it in a loopback-only network namespace (loopback-only.ts: every
 * real CLI here reaches the fake server and nothing else), and the ACP-only adapters run as local profiles
 * (`agents.local.json`) over a shipped ACP def. Provider keys reach the CLI through app-config
 * `agentCliEnv` (od withholds credential-looking variables of its own environment from agents on purpose).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openBunSqlite } from "../../server/platform/sqlite-bun.ts";
import { dataPaths } from "../../server/paths.ts";
import { binOverrideEnvVar } from "../../server/runtimes/executables.ts";
import { Store } from "../../server/store/store.ts";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.ts";
import { loopbackOnlyEntry } from "./loopback-only.ts";
import { baseEnv, entryArgv, recipeFor, writeRecipeFiles, type CliRecipe } from "./recipes.ts";
import type { RealCliId } from "./versions.ts";

/** How od reaches one CLI: the agent id `od run --agent` takes, and whether it is a local profile. */
export type OdAgentBinding = { agentId: string; profile?: { baseAgent: string } };

/**
 * The od agent for each pinned CLI. The ACP-only adapters have no shipped def of their own; they run as local
 * profiles over `vibe` (an ACP def with no arguments, no version policy and `session/load` resume).
 */
export const OD_AGENT_FOR: Record<RealCliId, OdAgentBinding> = {
  claude: { agentId: "claude" },
  codex: { agentId: "codex" },
  opencode: { agentId: "opencode" },
  pi: { agentId: "pi" },
  qwen: { agentId: "qwen" },
  copilot: { agentId: "copilot" },
  kilo: { agentId: "kilo" },
  "claude-code-acp": { agentId: "claude-code-acp", profile: { baseAgent: "vibe" } },
  "codex-acp": { agentId: "codex-acp", profile: { baseAgent: "vibe" } },
};

/** Everything one CLI's od runs need. */
export type OdSandbox = {
  cli: RealCliId;
  agentId: string;
  recipe: CliRecipe;
  fake: FakeModelServer;
  root: string;
  home: string;
  dataDir: string;
  project: string;
  /** The executable od launches: the loopback-only shim in front of the CLI's real entry. */
  entry: string;
  /** Environment for the od process (recipe env + the `<ID>_BIN` override). */
  env: Record<string, string>;
  dispose(): Promise<void>;
};

/** Config the recipe leaves to flags but a user would put in the CLI's own settings (od passes no such flags). */
export function settingsFiles(cli: RealCliId): Array<{ path: string; content: string }> {
  if (cli === "pi") {
    return [{ path: "agent/settings.json", content: `${JSON.stringify({ defaultProvider: "fakellm", defaultModel: "fake-model" })}\n` }];
  }
  return [];
}

/** Seed app-config `agentCliEnv` in a fresh data dir, as Settings → agent environment would. */
export function seedAgentEnv(dataDir: string, agentId: string, env: Record<string, string>): void {
  const store = Store.open(dataPaths(dataDir).database, openBunSqlite);
  try {
    store.appConfig.update({ agentCliEnv: { [agentId]: env } });
  } finally {
    store.close();
  }
}

/** Create the sandbox (and start its fake server). */
export async function createOdSandbox(cli: RealCliId): Promise<OdSandbox> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), `od-realcli-${cli}-`)));
  const [home, dataDir, project, binDir] = ["home", "data", "project", "bin"].map((name) => join(root, name)) as [string, string, string, string];
  for (const dir of [home, dataDir, project, binDir]) mkdirSync(dir, { recursive: true });
  const fake = await startFakeModelServer({ slowIntervalMs: 200 });
  const recipe = recipeFor(cli, fake.url, home);
  writeRecipeFiles({ ...recipe, files: [...recipe.files, ...settingsFiles(cli)] }, home);
  const isolated = loopbackOnlyEntry(binDir, recipe.id, entryArgv(recipe), fake.url);
  const entry = isolated.entry;
  const binding = OD_AGENT_FOR[cli];

  const env: Record<string, string> = { ...baseEnv(home, recipe), OD_DATA_DIR: dataDir };
  if (binding.profile) {
    const profile = { id: binding.agentId, name: cli, baseAgent: binding.profile.baseAgent, bin: entry, env: recipe.env };
    writeFileSync(dataPaths(dataDir).localProfiles, `${JSON.stringify([profile], null, 2)}\n`);
  } else {
    env[binOverrideEnvVar({ id: binding.agentId })] = entry;
    seedAgentEnv(dataDir, binding.agentId, recipe.env);
  }
  return {
    cli,
    agentId: binding.agentId,
    recipe,
    fake,
    root,
    home,
    dataDir,
    project,
    entry,
    env,
    dispose: async () => {
      isolated.close();
      await fake.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
