/**
 * The environment a run's child gets. The daemon's own provider credentials do not leak into an agent unless
 * that agent declares it reads them (`inheritedEnv`, e.g. claude ← ANTHROPIC_API_KEY) or the user configured them
 * for it (app-config `agentCliEnv`). od's own token never reaches a child.
 */
import type { EnvMap, RuntimeAgentDef } from "./types.ts";
import { RUN_COOKIE_VAR } from "../machines/run-cookie.ts";

/**
 * A name that looks like a credential, in any case. Its `_`/`-`/`.`-separated words are what count, so
 * `TOKENIZERS_PARALLELISM`, `PATH`, `PWD` and `SSH_AUTH_SOCK` are no credentials:
 * - a word KEY, TOKEN, SECRET, PASSWORD, PASSWD, PASSPHRASE or JWT, or one ending in them (`OPENAI_APIKEY`,
 *   `PGPASSWORD`), or CREDENTIAL(S), PAT, WEBHOOK;
 * - a last word PASS, PWD or AUTH after another word (`SMTP_PASS`, `MYSQL_PWD`, `REDISCLI_AUTH`, `npm_config__auth`);
 *   alone, `PWD` is the shell's working directory;
 * - a word AUTH before anything but SOCK (`DOCKER_AUTH_CONFIG`; `SSH_AUTH_SOCK` is a socket's path).
 */
const CREDENTIAL_WORD = /^(?:[A-Z0-9]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|JWT)S?|CREDENTIALS?|PAT|WEBHOOK)$/;
const CREDENTIAL_LAST_WORD = /^(?:PASS|PWD|AUTH)$/;
/** A URL whose userinfo part carries a user or password (`postgres://app:hunter2@db/app`). */
const URL_WITH_USERINFO = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]*@/i;
const ALWAYS_WITHHELD = new Set(["OD_TOKEN"]);

/** The per-run cookie every child carries (machines/run-cookie.ts). */
export { RUN_COOKIE_VAR };

/** True when a variable looks like a credential by its name, or by its value when `value` is given. */
export function isCredentialVar(name: string, value?: string): boolean {
  return isCredentialName(name) || (value !== undefined && URL_WITH_USERINFO.test(value.trim()));
}

function isCredentialName(name: string): boolean {
  const words = wordsOf(name.toUpperCase());
  const last = words.length - 1;
  for (let index = 0; index <= last; index++) {
    const word = words[index]!;
    if (CREDENTIAL_WORD.test(word) || (index === last && index > 0 && CREDENTIAL_LAST_WORD.test(word)) || (word === "AUTH" && index < last && words[index + 1] !== "SOCK")) return true;
  }
  return false;
}

/**
 * The `_`/`.`/`-`-separated words of `name`, none empty. A scan, not `split(/[_.-]+/)`: this runs for every variable
 * of every spawn, and a pattern split goes through regex builtins the engine compiles on their first use.
 */
function wordsOf(name: string): string[] {
  const words: string[] = [];
  let start = 0;
  for (let i = 0; i <= name.length; i++) {
    if (i < name.length && !isWordSeparator(name.charCodeAt(i))) continue;
    if (i > start) words.push(name.slice(start, i));
    start = i + 1;
  }
  return words;
}

const isWordSeparator = (code: number) => code === 0x5f /* _ */ || code === 0x2e /* . */ || code === 0x2d; /* - */

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
