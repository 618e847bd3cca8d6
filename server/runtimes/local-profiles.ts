/**
 * User-defined local agent profiles: `$OD_AGENT_PROFILES_CONFIG` or `<data dir>/agents.local.json`, an array or
 * `{ agents: [...] }`. Each entry extends a shipped def (default `claude`) with its own id, bin, prefix args, env,
 * models and probe timeouts. A bad entry is skipped with a `profile-invalid` diagnostic naming the file and the
 * entry; nothing throws.
 */
import { readFileSync } from "node:fs";
import { dataPaths, resolveDataDir } from "../paths.ts";
import type { AgentDiagnostic } from "../contracts/agents.ts";
import type * as ProbeTimeoutsContract from "../contracts/probe-timeouts.ts";
import { loadOnFirstUse } from "../platform/load-on-first-use.ts";
import type { EnvMap, RuntimeAgentDef, RuntimeModelOption } from "./types.ts";
import { asRecord, isDefaultModel, withDefaultModel } from "./defs/shared.ts";

const PROFILE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/;
const ENV_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The schema, built when a profile sets probe timeouts: without one, `od run` never loads zod. */
const probeTimeoutsContract = loadOnFirstUse<typeof ProbeTimeoutsContract>(import.meta.url, "../contracts/probe-timeouts.ts", () => require("../contracts/probe-timeouts.ts"));

/** Profiles read from one file plus what was wrong with the entries that were skipped. */
export type LocalProfilesResult = { file: string; defs: RuntimeAgentDef[]; diagnostics: AgentDiagnostic[] };

/** Where local profiles are read from. */
export function localProfilesPath(env: EnvMap): string {
  return env.OD_AGENT_PROFILES_CONFIG || dataPaths(resolveDataDir(env)).localProfiles;
}

function problem(file: string, entry: string, message: string): AgentDiagnostic {
  return {
    reason: "profile-invalid",
    severity: "warning",
    message: `${file}: ${entry}: ${message}`,
    detail: `Local agent profile ${entry} in ${file} was skipped.`,
    fixActions: [{ kind: "rescan" }],
  };
}

function stringArray(value: unknown): string[] | undefined | false {
  if (value === undefined) return undefined;
  return Array.isArray(value) && value.every((item) => typeof item === "string") ? value : false;
}

function parseModels(value: unknown): RuntimeModelOption[] | undefined | false {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) return false;
  const models: RuntimeModelOption[] = [];
  for (const item of value) {
    if (typeof item === "string" && item.trim()) models.push({ id: item.trim(), label: item.trim() });
    const record = asRecord(item);
    if (record && typeof record.id === "string" && record.id.trim()) {
      const id = record.id.trim();
      models.push({ id, label: typeof record.label === "string" && record.label.trim() ? record.label.trim() : id });
    }
  }
  return withDefaultModel(models);
}

function parseEnv(value: unknown): Record<string, string> | string {
  if (value === undefined) return {};
  const record = asRecord(value);
  if (!record) return "env must be an object";
  const env: Record<string, string> = {};
  for (const [key, raw] of Object.entries(record)) {
    if (!ENV_KEY.test(key)) return `invalid env key ${JSON.stringify(key)}`;
    if (!["string", "number", "boolean"].includes(typeof raw)) return `env ${key} must be a string, number or boolean`;
    env[key] = String(raw);
  }
  return env;
}

/** Turn one entry into a def, or explain why not. Pure. */
export function profileDefFromEntry(
  entry: unknown,
  shipped: readonly RuntimeAgentDef[],
  file: string,
  takenIds: ReadonlySet<string>,
): RuntimeAgentDef | string {
  const record = asRecord(entry);
  if (!record) return "entry must be an object";
  const id = record.id;
  if (typeof id !== "string" || !PROFILE_ID.test(id)) return "id must match ^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$";
  if (takenIds.has(id)) return `id ${id} collides with an existing agent`;
  const baseId = record.baseAgent === undefined ? "claude" : record.baseAgent;
  const base = typeof baseId === "string" ? shipped.find((def) => def.id === baseId) : undefined;
  if (!base) return `unknown baseAgent ${JSON.stringify(baseId)}`;
  const prefix = stringArray(record.args ?? record.prefixArgs);
  if (prefix === false) return "args/prefixArgs must be an array of strings";
  const versionArgs = stringArray(record.versionArgs);
  const helpArgs = stringArray(record.helpArgs);
  if (versionArgs === false || helpArgs === false) return "versionArgs/helpArgs must be arrays of strings";
  const env = parseEnv(record.env);
  if (typeof env === "string") return env;
  const models = parseModels(record.models ?? record.fallbackModels);
  if (models === false) return "models must be an array of strings or {id, label}";
  const probeTimeouts = record.probeTimeouts === undefined ? undefined : probeTimeoutsContract().ProbeTimeouts.safeParse(record.probeTimeouts);
  if (probeTimeouts && !probeTimeouts.success) {
    return "probeTimeouts must be an object of versionMs, helpMs, modelsMs, authMs (positive whole milliseconds, at most 10 minutes)";
  }
  const bin = typeof record.bin === "string" && record.bin.trim() ? record.bin.trim() : undefined;
  const defaultModel = typeof record.defaultModel === "string" && record.defaultModel.trim() ? record.defaultModel.trim() : undefined;
  const prefixArgs = prefix ?? [];
  return {
    ...base,
    id,
    name: typeof record.name === "string" && record.name.trim() ? record.name.trim() : id,
    bin: bin ?? base.bin,
    fallbackBins: bin ? undefined : base.fallbackBins,
    binEnvVar: undefined,
    versionArgs: versionArgs ?? base.versionArgs,
    helpArgs: helpArgs ?? base.helpArgs,
    env: { ...base.env, ...env },
    fallbackModels: models ?? base.fallbackModels,
    ...(probeTimeouts ? { probeTimeouts: { ...base.probeTimeouts, ...probeTimeouts.data } } : {}),
    authProbe: base.authProbe && { ...base.authProbe, classifierAgentId: base.authProbe.classifierAgentId ?? base.id },
    localProfile: { baseAgentId: base.id, sourceFile: file, ...(defaultModel ? { defaultModel } : {}) },
    buildArgs: (prompt, images, dirs, options = {}, context) => [
      ...prefixArgs,
      ...base.buildArgs(prompt, images, dirs, isDefaultModel(options.model) && defaultModel ? { ...options, model: defaultModel } : options, context),
    ],
  };
}

/** Parse the file's JSON text into defs. Pure (the caller reads the file). */
export function parseLocalProfiles(text: string, shipped: readonly RuntimeAgentDef[], file: string): LocalProfilesResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { file, defs: [], diagnostics: [problem(file, "(file)", `not valid JSON (${(error as Error).message})`)] };
  }
  const entries = Array.isArray(parsed) ? parsed : asRecord(parsed)?.agents;
  if (!Array.isArray(entries)) return { file, defs: [], diagnostics: [problem(file, "(file)", "expected an array or {agents: [...]}")] };
  const taken = new Set(shipped.map((def) => def.id));
  const defs: RuntimeAgentDef[] = [];
  const diagnostics: AgentDiagnostic[] = [];
  entries.forEach((entry, index) => {
    const label = typeof asRecord(entry)?.id === "string" ? `entry ${index} (${String(asRecord(entry)?.id)})` : `entry ${index}`;
    const result = profileDefFromEntry(entry, shipped, file, taken);
    if (typeof result === "string") diagnostics.push(problem(file, label, result));
    else {
      taken.add(result.id);
      defs.push(result);
    }
  });
  return { file, defs, diagnostics };
}

/**
 * Read the profiles file; a missing file is no profiles, an unreadable one is a diagnostic. `shipped` is asked for
 * only when there is a file to parse (it loads every shipped def).
 */
export function readLocalAgentProfileDefs(shipped: () => readonly RuntimeAgentDef[], env: EnvMap = process.env): LocalProfilesResult {
  const file = localProfilesPath(env);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ENOENT") return { file, defs: [], diagnostics: [] };
    return { file, defs: [], diagnostics: [problem(file, "(file)", `cannot be read (${code ?? "error"})`)] };
  }
  return parseLocalProfiles(text, shipped(), file);
}
