/**
 * How long each detection probe may take. Generous on purpose: a cold npm-installed CLI answers `--version` in
 * 2.5–4 s on an idle machine and far slower on a loaded one. A slow CLI never holds up the others (each def probes
 * on its own and the catalog stops waiting at its deadline), and a timed-out probe that decides what od knows of the
 * CLI (version, help) is run once more with twice the budget.
 */
import type { ProbeTimeouts } from "../contracts/probe-timeouts.ts";
import type { ProbeOptions, ProbeResult, ProbeRunner } from "./probe.ts";
import type { RuntimeAgentDef } from "./types.ts";

export type ProbeBudgets = Required<ProbeTimeouts>;

export const DEFAULT_PROBE_BUDGETS: ProbeBudgets = { versionMs: 10_000, helpMs: 10_000, modelsMs: 10_000, authMs: 10_000 };

/**
 * The limits for one def: defaults, then the caller's, then the def's own version limit, then the def's
 * `probeTimeouts` (a local profile's), which win over everything.
 */
export function probeBudgetsFor(def: Pick<RuntimeAgentDef, "versionProbeTimeoutMs" | "probeTimeouts">, overrides: ProbeTimeouts = {}): ProbeBudgets {
  const own = def.versionProbeTimeoutMs ? { versionMs: def.versionProbeTimeoutMs } : {};
  return { ...DEFAULT_PROBE_BUDGETS, ...overrides, ...own, ...def.probeTimeouts };
}

/** Run a probe; when it times out (and nobody aborted it), once more with twice the budget. */
export async function runWithRetry(run: ProbeRunner, argv: string[], options: ProbeOptions): Promise<ProbeResult> {
  const first = await run(argv, options);
  if (first.kind !== "timeout" || options.signal?.aborted) return first;
  const second = await run(argv, { ...options, timeoutMs: options.timeoutMs * 2 });
  return { ...second, ms: first.ms + second.ms };
}

/** Beyond its probes' own limits: spawning, reading and judging them on a loaded machine. */
const SETTLE_MARGIN_MS = 5_000;

/**
 * The longest one def's detection can take: its version probe (retried once at twice the budget), then the longest
 * of its help, models and auth probes (each as long), and a margin. A run waiting for that def waits no longer.
 */
export function probeBudgetMs(def: Pick<RuntimeAgentDef, "versionProbeTimeoutMs" | "probeTimeouts">, overrides: ProbeTimeouts = {}): number {
  const budgets = probeBudgetsFor(def, overrides);
  return 3 * budgets.versionMs + 3 * Math.max(budgets.helpMs, budgets.modelsMs, budgets.authMs) + SETTLE_MARGIN_MS;
}
