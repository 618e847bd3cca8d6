#!/usr/bin/env bun
/**
 * Fifty runs at once through a real daemon (dist/od): 50 concurrent POST /api/runs, each a fake Claude CLI writing
 * 2,000 text lines, one SSE reader per run, against the same 50 CLIs started at once alone, alternately. Reports:
 * `/api/health` p99 from the first POST until every run has ended (a poll every 10 ms), each run's first event after its POST's
 * answer (the worst of the 50), the wall time against the 50 CLIs alone, and the daemon's peak RSS over idle.
 * Every run must deliver as many frames as one run alone does (no event lost), else the bench fails. Health's floor
 * is the same poll of the idle daemon while the 50 CLIs run alone (the machine's load without od's work).
 *   bun run bench/concurrency.ts          (OD_BENCH_REPS=N for N rounds, default 5)
 */
import { join } from "node:path";
import { figureOf, type Figure } from "./support/figures.ts";
import { CLAUDE_ARGS, CLAUDE_STDIN } from "./support/claude-script.ts";
import { startClaudeDaemon } from "./support/claude-daemon.ts";
import { readBlocks, type BenchDaemon } from "./support/daemon.ts";
import { workDir } from "./support/od.ts";
import { benchReps, interleaved, measureProcess, procStatusMb, samplePeakRss } from "./support/process.ts";
import { percentile } from "./support/stats.ts";
import { loadText, note, reportFigures } from "./support/report.ts";

const RUNS = 50;
const LINES = 2_000;
const HEALTH_EVERY_MS = 10;
const HEALTH_POLLER = join(import.meta.dir, "fixtures", "health-poller.ts");
/** Lets the daemon's after-run work (WAL checkpoint) finish before the next round, as api-run.ts does. */
const SETTLE_MS = 500;

type RunResult = { frames: number; firstEventAfterAnswerMs: number };
type Round = { wallMs: number; healthP99Ms: number; worstFirstEventMs: number; peakOverIdleMb: number; frames: number[] };

/** One run: POST, then read its stream to the end; counts its frames and times its first one after the answer. */
async function oneRun(bench: BenchDaemon, projectId: string): Promise<RunResult> {
  const runId = await bench.startRun(projectId, "claude");
  const answered = performance.now();
  const res = await bench.events(runId);
  if (!res.ok || !res.body) throw new Error(`events: ${res.status}`);
  let frames = 0;
  let firstAt: number | undefined;
  await readBlocks(res.body, "\n\n", (block) => {
    if (!block.trim() || block.startsWith(":")) return;
    firstAt ??= performance.now();
    frames++;
  });
  if (firstAt === undefined) throw new Error(`run ${runId}: no event`);
  return { frames, firstEventAfterAnswerMs: firstAt - answered };
}

/**
 * Polls /api/health until stopped, from a process of its own (bench/fixtures/health-poller.ts): polled from this
 * one, the latencies held this process's own stalls while it read fifty streams. Every answer's latency in ms.
 */
function pollHealth(bench: BenchDaemon): { stop(): Promise<number[]> } {
  const poller = Bun.spawn([process.execPath, HEALTH_POLLER, `${bench.daemon.origin}/api/health`, String(HEALTH_EVERY_MS)], { stdin: "pipe", stdout: "pipe", stderr: "inherit" });
  return {
    async stop() {
      await poller.stdin.end();
      const [text, code] = await Promise.all([new Response(poller.stdout).text(), poller.exited]);
      if (code !== 0) throw new Error(`health poller exited ${code}`);
      return text.trim().split("\n").filter(Boolean).map(Number);
    },
  };
}

async function fiftyRuns(bench: BenchDaemon, projectId: string): Promise<Round> {
  const idleMb = (await procStatusMb(bench.pid, "VmRSS")) ?? 0;
  const peak = samplePeakRss(bench.pid, 10, ["VmRSS"]);
  const health = pollHealth(bench);
  const started = performance.now();
  const runs = Promise.all(Array.from({ length: RUNS }, () => oneRun(bench, projectId)));
  // Health is judged from the first POST until every run has ended: while the runs are created and while they stream.
  const results = await runs;
  const wallMs = performance.now() - started;
  const latencies = await health.stop();
  const peakMb = await peak.stop();
  await Bun.sleep(SETTLE_MS);
  return {
    wallMs,
    healthP99Ms: percentile(latencies, 99),
    worstFirstEventMs: Math.max(...results.map((r) => r.firstEventAfterAnswerMs)),
    peakOverIdleMb: peakMb - idleMb,
    frames: results.map((r) => r.frames),
  };
}

async function fiftyClisAlone(bin: string, env: Record<string, string>, cwd: string): Promise<number> {
  const started = performance.now();
  await Promise.all(Array.from({ length: RUNS }, () => measureProcess([join(bin, "claude"), ...CLAUDE_ARGS], { env, cwd, stdin: CLAUDE_STDIN })));
  return performance.now() - started;
}

export async function measureConcurrency(): Promise<Figure[]> {
  using dir = workDir("concurrency");
  await using daemon = await startClaudeDaemon(dir.path, LINES);
  const { bench, projectId, bin, env, projectDir } = daemon;
  const alone = await oneRun(bench, projectId);
  await Bun.sleep(SETTLE_MS);
  note(`concurrency: ${RUNS} runs × ${LINES} lines; one run alone sends ${alone.frames} frames; ${loadText()}`);
  const rounds = await interleaved(benchReps(), {
    od: () => fiftyRuns(bench, projectId),
    cli: async (): Promise<Round> => {
      // The same 50 CLIs alone, while the daemon idles: its health then is what the machine's load alone costs it.
      const health = pollHealth(bench);
      const wallMs = await fiftyClisAlone(bin, env, projectDir);
      return { wallMs, healthP99Ms: percentile(await health.stop(), 99), worstFirstEventMs: 0, peakOverIdleMb: 0, frames: [] };
    },
  });
  const lost = rounds.od.flatMap((round) => round.frames).filter((frames) => frames !== alone.frames);
  if (lost.length) throw new Error(`${lost.length} run(s) did not deliver ${alone.frames} frames: ${lost.slice(0, 5).join(", ")}…`);
  const od50 = rounds.od;
  return [
    figureOf({
      id: "concurrency.health",
      title: `/api/health p99 during ${RUNS} concurrent run creations`,
      unit: "ms",
      od: od50.map((r) => r.healthP99Ms),
      judged: od50.map((r) => r.healthP99Ms),
      target: { op: "<=", value: 50, unit: "ms", text: "≤ 50 ms" },
      // What the 50 CLIs alone do to an idle daemon's health on this machine: no code of od's runs meanwhile.
      floor: { what: "the idle daemon while the 50 CLIs run alone", judged: rounds.cli.map((r) => r.healthP99Ms) },
    }),
    figureOf({
      id: "concurrency.firstEvent",
      title: `worst first event after its POST's answer, ${RUNS} runs`,
      unit: "ms",
      od: od50.map((r) => r.worstFirstEventMs),
      judged: od50.map((r) => r.worstFirstEventMs),
      target: { op: "<=", value: 300, unit: "ms", text: "≤ 300 ms" },
    }),
    figureOf({
      id: "concurrency.wall",
      title: `${RUNS} runs × ${LINES / 1000}k events, wall (baseline: the ${RUNS} CLIs alone)`,
      unit: "s",
      od: od50.map((r) => r.wallMs / 1000),
      baseline: rounds.cli.map((r) => r.wallMs / 1000),
      judged: od50.map((r, i) => r.wallMs / rounds.cli[i]!.wallMs),
      target: { op: "<=", value: 2, unit: "×", text: "≤ 2× the CLIs alone" },
    }),
    figureOf({
      id: "concurrency.rss",
      title: `daemon peak RSS over idle, ${RUNS} runs`,
      unit: "MB",
      od: od50.map((r) => r.peakOverIdleMb),
      judged: od50.map((r) => r.peakOverIdleMb),
      target: { op: "<=", value: 60, unit: "MB", text: "≤ +60 MB" },
    }),
  ];
}

if (import.meta.main) reportFigures(await measureConcurrency());
