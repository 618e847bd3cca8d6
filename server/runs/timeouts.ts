/** Watchdog and cancel timings: environment overrides win over per-def ceilings, which win over defaults. */
import type { EnvMap, RuntimeAgentDef } from "../runtimes/types.ts";

export type RunTimeouts = {
  firstOutputMs(def: RuntimeAgentDef): number;
  inactivityMs(def: RuntimeAgentDef): number;
  cancelGraceMs: number;
};

const DEFAULT_FIRST_OUTPUT_MS = 5 * 60_000;
const DEFAULT_INACTIVITY_MS = 10 * 60_000;
const DEFAULT_CANCEL_GRACE_MS = 3_000;

function envMs(env: EnvMap, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return undefined;
  const value = Number(raw);
  return Number.isFinite(value) ? value : undefined;
}

export function resolveRunTimeouts(env: EnvMap, overrides: Partial<RunTimeouts> = {}): RunTimeouts {
  const firstOutput = envMs(env, "OD_CHAT_RUN_FIRST_OUTPUT_TIMEOUT_MS");
  const inactivity = envMs(env, "OD_CHAT_RUN_INACTIVITY_TIMEOUT_MS");
  return {
    firstOutputMs: overrides.firstOutputMs ?? ((def) => firstOutput ?? def.firstOutputTimeoutMs ?? DEFAULT_FIRST_OUTPUT_MS),
    inactivityMs: overrides.inactivityMs ?? ((def) => inactivity ?? def.inactivityTimeoutMs ?? DEFAULT_INACTIVITY_MS),
    cancelGraceMs: overrides.cancelGraceMs ?? envMs(env, "OD_CHAT_RUN_CANCEL_GRACE_MS") ?? DEFAULT_CANCEL_GRACE_MS,
  };
}
