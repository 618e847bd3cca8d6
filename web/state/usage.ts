/**
 * The usage view's model: finished runs' figures from `GET /api/usage`, loaded when the view opens, and the
 * per-day series the chart draws (pure, so tests check the numbers without a browser).
 */
import { signal } from "@preact/signals";
import type { UsageResponse, UsageRun } from "../../server/contracts/usage.ts";
import { errorMessage, type Api } from "../api/client.ts";

/** What the chart adds up per day. */
export type UsageMetric = "tokens" | "cost" | "duration";

/** One agent/model pair's value for each day of the range. */
export interface UsageSeries {
  key: string;
  agentId: string;
  model: string;
  values: number[];
}

export interface DailyUsage {
  /** Local calendar days, oldest first, as YYYY-MM-DD. */
  days: string[];
  series: UsageSeries[];
  /** The tallest day's total (for the chart's scale); 0 when nothing was used. */
  max: number;
}

/** The model's name for a run whose CLI used its own default. */
export const DEFAULT_MODEL = "default";

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

/** The local calendar day of a timestamp, YYYY-MM-DD. */
export function dayOf(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** A run's figure for `metric`, or undefined when its CLI did not report it (never guessed). */
export function metricOf(run: UsageRun, metric: UsageMetric): number | undefined {
  switch (metric) {
    case "tokens":
      return run.inputTokens === null && run.outputTokens === null ? undefined : (run.inputTokens ?? 0) + (run.outputTokens ?? 0);
    case "cost":
      return run.costUsd ?? undefined;
    case "duration":
      return run.durationMs ?? undefined;
  }
}

/** Sums `metric` per local day (the last `dayCount` days up to `now`) and per agent/model pair. */
export function dailyUsage(runs: readonly UsageRun[], metric: UsageMetric, dayCount: number, now: number): DailyUsage {
  const days: string[] = [];
  const today = new Date(now);
  for (let i = dayCount - 1; i >= 0; i--) days.push(dayOf(new Date(today.getFullYear(), today.getMonth(), today.getDate() - i, 12).getTime()));
  const index = new Map(days.map((day, i) => [day, i]));
  const byKey = new Map<string, UsageSeries>();
  for (const run of runs) {
    const at = run.startedAt ?? run.endedAt;
    const value = metricOf(run, metric);
    const day = at === null ? undefined : index.get(dayOf(at));
    if (value === undefined || day === undefined) continue;
    const model = run.model ?? DEFAULT_MODEL;
    const key = `${run.agentId} · ${model}`;
    let series = byKey.get(key);
    if (!series) byKey.set(key, (series = { key, agentId: run.agentId, model, values: days.map(() => 0) }));
    series.values[day]! += value;
  }
  const series = [...byKey.values()].sort((a, b) => a.key.localeCompare(b.key));
  const max = Math.max(0, ...days.map((_, i) => series.reduce((sum, s) => sum + s.values[i]!, 0)));
  return { days, series, max };
}

export function createUsageModel(api: Api) {
  const open = signal(false, { name: "usage.open" });
  const runs = signal<UsageRun[]>([], { name: "usage.runs" });
  const loading = signal(false, { name: "usage.loading" });
  const error = signal<string | null>(null, { name: "usage.error" });
  const metric = signal<UsageMetric>("tokens", { name: "usage.metric" });

  async function load(): Promise<void> {
    loading.value = true;
    try {
      runs.value = (await api.get<UsageResponse>("/api/usage")).runs;
      error.value = null;
    } catch (e) {
      error.value = errorMessage(e);
    } finally {
      loading.value = false;
    }
  }

  function show(): void {
    open.value = true;
    void load();
  }

  return { open, runs, loading, error, metric, load, show, close: () => (open.value = false) };
}
export type UsageModel = ReturnType<typeof createUsageModel>;
