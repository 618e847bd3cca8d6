/**
 * The one setup entry point behind `POST /api/agents/deepseek-harness/setup` and `od setup deepseek-harness`:
 * finds the user's dsh exactly as detection and runs do (DSH_BIN → PATH → toolchain dirs, Windows shims through
 * cmd.exe), then installs the embedded profile into `$DSH_HOME` (default ~/.dsh).
 */
import { deepseekHarnessAgentDef } from "../runtimes/defs/deepseek-harness.ts";
import { resolveAgentLaunch } from "../runtimes/launch.ts";
import type { EnvMap } from "../runtimes/types.ts";
import type { DshRuntimeSource } from "./embedded-runtime.ts";
import { DSH_AGENT_ID } from "./agent-id.ts";
import { resolveDshHome, setupDshProfile, type DshSetupResult } from "./setup.ts";

export type SetupDeepseekHarnessOptions = {
  env: EnvMap;
  source: DshRuntimeSource;
  platform?: NodeJS.Platform;
  /** Override the profile check (tests); default `dsh --profile open-design --probe`, exact embedded version. */
  probe?: Parameters<typeof setupDshProfile>[0]["probe"];
};

export async function setupDeepseekHarness(options: SetupDeepseekHarnessOptions): Promise<DshSetupResult> {
  const def = deepseekHarnessAgentDef();
  const resolved = resolveAgentLaunch(def, { env: options.env, platform: options.platform ?? process.platform });
  if (!resolved.ok) {
    const how = def.installCommand ? ` Install it with: ${def.installCommand}` : "";
    return { ok: false, agent: DSH_AGENT_ID, code: "AGENT_NOT_INSTALLED", message: `${def.bin} was not found (set DSH_BIN or put it on PATH).${how}` };
  }
  const { launch } = resolved;
  return setupDshProfile({
    dshBin: launch.command,
    dshArgsPrefix: launch.argsPrefix,
    dshHome: resolveDshHome(options.env),
    source: options.source,
    env: launch.env,
    ...(options.probe ? { probe: options.probe } : {}),
  });
}
