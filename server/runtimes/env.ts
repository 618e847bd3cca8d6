/**
 * The environment a run's child gets. The daemon's own provider credentials do not leak into an agent unless
 * that agent declares it reads them (`inheritedEnv`, e.g. claude ← ANTHROPIC_API_KEY) or the user configured them
 * for it (app-config `agentCliEnv`). od's own token never reaches a child.
 */
import type { EnvMap, RuntimeAgentDef } from "./types.ts";

/** Variables that look like a credential for some provider. */
const CREDENTIAL_NAME = /(_API_KEY|_TOKEN|_SECRET_ACCESS_KEY|_SECRET_KEY|_SECRET|_PAT|^AWS_ACCESS_KEY_ID)$/;
const ALWAYS_WITHHELD = new Set(["OD_TOKEN"]);

/** The per-run cookie every child carries, so leftovers can be found after the process group is gone. */
export const RUN_COOKIE_VAR = "OD_RUN_ID";

export function isCredentialVar(name: string): boolean {
  return CREDENTIAL_NAME.test(name);
}

export function spawnEnvForAgent(
  def: Pick<RuntimeAgentDef, "env" | "inheritedEnv">,
  daemonEnv: EnvMap,
  configured: Record<string, string> | undefined,
  runId: string,
): Record<string, string> {
  return { ...agentChildEnv(def, daemonEnv, configured), [RUN_COOKIE_VAR]: runId };
}

/**
 * The environment of any child of this agent without the run cookie: detection probes use it, so `--version`,
 * `models` and `auth status` see the same credentials and config (`agentCliEnv`) a run will.
 */
export function agentChildEnv(
  def: Pick<RuntimeAgentDef, "env" | "inheritedEnv">,
  daemonEnv: EnvMap,
  configured: Record<string, string> | undefined,
): Record<string, string> {
  const inherited = new Set(def.inheritedEnv ?? []);
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(daemonEnv)) {
    if (value === undefined || ALWAYS_WITHHELD.has(key)) continue;
    if (isCredentialVar(key) && !inherited.has(key)) continue;
    env[key] = value;
  }
  Object.assign(env, def.env, configured);
  return env;
}
