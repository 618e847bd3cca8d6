/**
 * The environment a run's child gets. The daemon's own provider credentials do not leak into an agent unless
 * that agent declares it reads them (`inheritedEnv`, e.g. claude ← ANTHROPIC_API_KEY) or the user configured them
 * for it (app-config `agentCliEnv`). od's own token never reaches a child.
 */
import type { EnvMap, RuntimeAgentDef } from "./types.ts";

/**
 * A name that looks like a credential, in any case: one of its `_`/`-`/`.`-separated words is KEY, TOKEN, SECRET,
 * PASSWORD, PASSWD, CREDENTIAL(S), PAT or WEBHOOK, or ends in KEY/TOKEN/SECRET (`OPENAI_APIKEY`). Words only:
 * `TOKENIZERS_PARALLELISM`, `PATH` and `PWD` are no credentials.
 */
const CREDENTIAL_WORD = /^(?:[A-Z0-9]*(?:KEY|TOKEN|SECRET)S?|PASSWORDS?|PASSWD|CREDENTIALS?|PAT|WEBHOOK)$/;
/** A URL whose userinfo part carries a user or password (`postgres://app:hunter2@db/app`). */
const URL_WITH_USERINFO = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]*@/i;
const ALWAYS_WITHHELD = new Set(["OD_TOKEN"]);

/** The per-run cookie every child carries, so leftovers can be found after the process group is gone. */
export const RUN_COOKIE_VAR = "OD_RUN_ID";

/** True when a variable looks like a credential by its name, or by its value when `value` is given. */
export function isCredentialVar(name: string, value?: string): boolean {
  return name.toUpperCase().split(/[_.-]+/).some((word) => CREDENTIAL_WORD.test(word)) || (value !== undefined && URL_WITH_USERINFO.test(value.trim()));
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
    if (isCredentialVar(key, value) && !inherited.has(key)) continue;
    env[key] = value;
  }
  Object.assign(env, def.env, configured);
  return env;
}

/**
 * The environment a run's agent gets on another machine or in a container: only what the run needs — the def's
 * static env, the credentials its definition reads (`inheritedEnv`) when this od has them, what the user configured
 * for the agent (`agentCliEnv`, e.g. PATH there) and the run cookie. Nothing else of this machine's environment
 * (PATH, HOME, other providers' keys) travels: the remote side has its own.
 */
export function remoteAgentEnv(
  def: Pick<RuntimeAgentDef, "env" | "inheritedEnv">,
  daemonEnv: EnvMap,
  configured: Record<string, string> | undefined,
  runId: string,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of def.inheritedEnv ?? []) {
    const value = daemonEnv[key];
    if (value !== undefined && !ALWAYS_WITHHELD.has(key)) env[key] = value;
  }
  Object.assign(env, def.env, configured);
  env[RUN_COOKIE_VAR] = runId;
  return env;
}
