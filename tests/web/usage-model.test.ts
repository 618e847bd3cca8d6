/** Issue #19: the usage view's numbers — per local day, per agent/model, only what the CLIs reported. */
import { describe, expect, test } from "bun:test";
import { h } from "preact";
import type { UsageRun } from "../../server/contracts/usage.ts";
import { createApi } from "../../web/api/client.ts";
import { UsageChart } from "../../web/components/usage-chart.tsx";
import { createUsageModel, dailyUsage, dayOf } from "../../web/state/usage.ts";
import { fakeFetch } from "../support/web-fake-fetch.ts";
import { vnodeToHtml } from "../support/web-vnode-html.ts";

const NOW = new Date(2026, 2, 10, 15, 0).getTime();
const DAY = 86_400_000;

function run(over: Partial<UsageRun>): UsageRun {
  return {
    runId: "r",
    projectId: "p",
    conversationId: "c",
    agentId: "claude",
    model: "opus",
    status: "succeeded",
    startedAt: NOW - 1000,
    endedAt: NOW,
    durationMs: 1000,
    inputTokens: 10,
    outputTokens: 5,
    costUsd: 0.5,
    ...over,
  };
}

describe("daily usage", () => {
  test("sums each metric per local day and per agent/model pair, oldest day first", () => {
    const runs = [
      run({ runId: "a" }),
      run({ runId: "b", inputTokens: 100, outputTokens: 1, costUsd: 0.25 }),
      run({ runId: "c", agentId: "codex", model: null, startedAt: NOW - 2 * DAY, costUsd: null, durationMs: 4000 }),
    ];
    const tokens = dailyUsage(runs, "tokens", 3, NOW);
    expect(tokens.days).toEqual([dayOf(NOW - 2 * DAY), dayOf(NOW - DAY), dayOf(NOW)]);
    expect(tokens.series).toEqual([
      { key: "claude · opus", agentId: "claude", model: "opus", values: [0, 0, 116] },
      { key: "codex · default", agentId: "codex", model: "default", values: [15, 0, 0] },
    ]);
    expect(tokens.max).toBe(116);
    const cost = dailyUsage(runs, "cost", 3, NOW);
    expect(cost.series.map((s) => [s.key, s.values])).toEqual([["claude · opus", [0, 0, 0.75]]]);
    expect(dailyUsage(runs, "duration", 3, NOW).series.map((s) => s.values)).toEqual([
      [0, 0, 2000],
      [4000, 0, 0],
    ]);
  });

  test("a run without reported figures adds nothing (no zero-cost bar invented); runs outside the range are left out", () => {
    const runs = [run({ inputTokens: null, outputTokens: null, costUsd: null }), run({ runId: "old", startedAt: NOW - 40 * DAY })];
    expect(dailyUsage(runs, "tokens", 7, NOW)).toMatchObject({ series: [], max: 0 });
    expect(dailyUsage(runs, "cost", 7, NOW).series).toEqual([]);
  });

  test("the chart draws one bar segment per agent/model and day, as inline SVG with no external reference", () => {
    const data = dailyUsage([run({ runId: "a" }), run({ runId: "b", agentId: "codex", model: "gpt" })], "tokens", 7, NOW);
    const html = vnodeToHtml(h(UsageChart, { data, format: String }));
    expect(html.match(/data-testid="usage-bar"/g)).toHaveLength(2);
    expect(html).toContain('data-series="claude · opus" data-value="15"');
    expect(html).toContain('data-series="codex · gpt" data-value="15"');
    expect(html).not.toMatch(/https?:|href=|src=/);
  });
});

test("the model loads GET /api/usage when shown and keeps an error message on failure", async () => {
  let fail = false;
  const { fetch, calls } = fakeFetch({
    "GET /api/usage": () => (fail ? Response.json({ error: { code: "X", message: "nope" } }, { status: 500 }) : Response.json({ runs: [run({ runId: "a" })] })),
  });
  const usage = createUsageModel(createApi(fetch));
  usage.show();
  expect(usage.open.value).toBe(true);
  await usage.load();
  expect(usage.runs.value.map((r) => r.runId)).toEqual(["a"]);
  fail = true;
  await usage.load();
  expect(usage.error.value).toContain("nope");
  expect(calls.every((c) => c.method === "GET" && c.url === "/api/usage")).toBe(true);
});
