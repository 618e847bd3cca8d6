/** Usage: what runs used over time, per agent and model (a chart), and every run's figures (a table). */
import { useEffect, useState } from "preact/hooks";
import type { UsageRun } from "../../server/contracts/usage.ts";
import { UsageChart } from "../components/usage-chart.tsx";
import { dailyUsage, DEFAULT_MODEL, type UsageMetric, type UsageModel } from "../state/usage.ts";
import { CloseIcon } from "../components/icons.tsx";

const METRICS: Array<[UsageMetric, string]> = [
  ["tokens", "Tokens"],
  ["cost", "Cost"],
  ["duration", "Duration"],
];
const RANGES = [7, 14, 30, 90];

const tokens = (n: number) => Math.round(n).toLocaleString();
const dollars = (n: number) => `$${n.toFixed(n >= 100 ? 0 : 4)}`;
const seconds = (ms: number) => (ms >= 60_000 ? `${(ms / 60_000).toFixed(1)} min` : `${(ms / 1000).toFixed(1)}s`);
const FORMAT: Record<UsageMetric, (n: number) => string> = { tokens, cost: dollars, duration: seconds };

function when(ms: number | null): string {
  return ms === null ? "—" : new Date(ms).toLocaleString(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

function RunRow({ run }: { run: UsageRun }) {
  return (
    <tr data-testid="usage-row" data-run-id={run.runId} data-status={run.status}>
      <td data-label="Started">{when(run.startedAt)}</td>
      <td data-label="Agent">{run.agentId}</td>
      <td data-label="Model">{run.model ?? DEFAULT_MODEL}</td>
      <td data-label="Status" class={`status-${run.status}`}>{run.status}</td>
      <td data-label="Tokens in / out" class="num" data-testid="usage-tokens">
        {run.inputTokens === null && run.outputTokens === null ? "—" : `${tokens(run.inputTokens ?? 0)} / ${tokens(run.outputTokens ?? 0)}`}
      </td>
      <td data-label="Cost" class="num" data-testid="usage-cost">
        {run.costUsd === null ? "—" : dollars(run.costUsd)}
      </td>
      <td data-label="Duration" class="num" data-testid="usage-duration">
        {run.durationMs === null ? "—" : seconds(run.durationMs)}
      </td>
    </tr>
  );
}

export function UsageView({ usage }: { usage: UsageModel }) {
  const [days, setDays] = useState(14);
  const metric = usage.metric.value;
  const runs = usage.runs.value;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && usage.close();
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, []);
  const data = dailyUsage(runs, metric, days, Date.now());
  const reportedCost = runs.filter((r) => r.costUsd !== null);
  const totalCost = reportedCost.reduce((sum, r) => sum + (r.costUsd ?? 0), 0);
  const totalTokens = runs.reduce((sum, r) => sum + (r.inputTokens ?? 0) + (r.outputTokens ?? 0), 0);
  return (
    <div class="overlay" onClick={(e) => e.target === e.currentTarget && usage.close()}>
      <div class="settings usage-view" role="dialog" aria-modal="true" aria-label="Usage" data-testid="usage-view">
        <header class="settings-head">
          <h2>Usage</h2>
          <button type="button" class="icon" aria-label="Close usage" onClick={usage.close}>
            <CloseIcon />
          </button>
        </header>
        <div class="row usage-controls">
          <div role="radiogroup" aria-label="Measure" class="row">
            {METRICS.map(([id, label]) => (
              <label key={id}>
                <input type="radio" name="usage-metric" checked={metric === id} onChange={() => (usage.metric.value = id)} data-testid={`usage-metric-${id}`} /> {label}
              </label>
            ))}
          </div>
          <span class="spacer" />
          <select aria-label="Range" value={String(days)} onChange={(e) => setDays(Number((e.currentTarget as HTMLSelectElement).value))}>
            {RANGES.map((n) => (
              <option key={n} value={String(n)}>
                last {n} days
              </option>
            ))}
          </select>
        </div>
        {usage.error.value && <p class="error">{usage.error.value}</p>}
        <UsageChart data={data} format={FORMAT[metric]} />
        <p class="muted usage-totals" data-testid="usage-totals">
          {runs.length} {runs.length === 1 ? "run" : "runs"} · {tokens(totalTokens)} tokens
          {reportedCost.length > 0 && ` · ${dollars(totalCost)} reported by ${reportedCost.length} of them`}
          {usage.loading.value && " · loading…"}
        </p>
        <div class="usage-table-wrap">
          <table class="usage-table" data-testid="usage-table">
            <thead>
              <tr>
                <th>Started</th>
                <th>Agent</th>
                <th>Model</th>
                <th>Status</th>
                <th class="num">Tokens in / out</th>
                <th class="num">Cost</th>
                <th class="num">Duration</th>
              </tr>
            </thead>
            <tbody>
              {runs.map((run) => (
                <RunRow key={run.runId} run={run} />
              ))}
            </tbody>
          </table>
          {runs.length === 0 && !usage.loading.value && <p class="empty">No finished runs yet.</p>}
        </div>
      </div>
    </div>
  );
}
