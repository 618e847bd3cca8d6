#!/usr/bin/env bun
/**
 * A run through the HTTP API of a real daemon (dist/od): POST /api/runs → the SSE stream's `end` frame, for a fake
 * Claude CLI writing 50k text lines, against the same CLI run alone (same argv, stdin and output, stdout drained),
 * alternately, after one untimed run of each. Per event: (API run − CLI alone) / lines. Target ≤ 5 µs per event.
 * The SSE client only looks for the `end` frame, so it adds as little as a client can.
 *   bun run bench/api-run.ts            (OD_BENCH_REPS=N for N rounds, default 5)
 */
import { join } from "node:path";
import { figureOf, type Figure } from "./support/figures.ts";
import { CLAUDE_ARGS, CLAUDE_STDIN } from "./support/claude-script.ts";
import { startClaudeDaemon } from "./support/claude-daemon.ts";
import type { BenchDaemon } from "./support/daemon.ts";
import { workDir } from "./support/od.ts";
import { benchReps, interleaved, measureProcess } from "./support/process.ts";
import { loadText, note, reportFigures } from "./support/report.ts";

const LINES = 50_000;
/**
 * After each API run, the daemon's own after-run work (its WAL checkpoint, 50 ms after the run settles) is let finish
 * before the next round: it must not slow the CLI-alone baseline that may run next, which would flatter od.
 */
const SETTLE_MS = 300;
const END_FRAME = "event: end\n";

/** POST → the stream closes after its `end` frame; ms. */
async function apiRun(bench: BenchDaemon, projectId: string): Promise<number> {
  const started = performance.now();
  const runId = await bench.startRun(projectId, "claude");
  const res = await bench.events(runId);
  if (!res.ok || !res.body) throw new Error(`events: ${res.status}`);
  const decoder = new TextDecoder();
  let tail = "";
  let ended = false;
  for await (const chunk of res.body) {
    const text = tail + decoder.decode(chunk, { stream: true });
    if (text.includes(END_FRAME)) ended = true;
    tail = text.slice(-END_FRAME.length);
  }
  if (!ended) throw new Error(`run ${runId}: the stream closed without an end frame`);
  return performance.now() - started;
}

export async function measureApiRun(): Promise<Figure[]> {
  using dir = workDir("api-run");
  await using daemon = await startClaudeDaemon(dir.path, LINES);
  const { bench, projectId, bin, env, projectDir } = daemon;
  note(`api run: ${loadText()}`);
  const runs = await interleaved(benchReps(), {
    od: async () => {
      const ms = await apiRun(bench, projectId);
      await Bun.sleep(SETTLE_MS);
      return ms;
    },
    cli: async () => (await measureProcess([join(bin, "claude"), ...CLAUDE_ARGS], { env, cwd: projectDir, stdin: CLAUDE_STDIN })).ms,
  });
  return [
    figureOf({
      id: "api.perEvent",
      title: `HTTP API run, POST → SSE end, ${LINES / 1000}k events (total time)`,
      unit: "s",
      od: runs.od.map((ms) => ms / 1000),
      baseline: runs.cli.map((ms) => ms / 1000),
      judged: runs.od.map((ms, i) => ((ms - runs.cli[i]!) * 1000) / LINES),
      target: { op: "<=", value: 5, unit: "µs/event", text: "≤ 5 µs/event over the CLI" },
    }),
  ];
}

if (import.meta.main) reportFigures(await measureApiRun());
