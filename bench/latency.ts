#!/usr/bin/env bun
/**
 * Streaming through a real daemon (dist/od), with a fake opencode CLI (bench/fixtures/paced-cli.ts) writing
 * timestamped text events at 5k/s:
 *  - CLI write → SSE frame: each event's latency from its write to the harness reading it, p99 per run. Beside it the
 *    harness's own floor: the same reader on the same CLI run directly (its stdout lines). Alternately, after one
 *    untimed run of each. Events written before the SSE response arrived are not counted (they come as a replay).
 *    Target: od's p99 ≤ 5 ms.
 *  - RSS with 10 runs streaming at 5k events/s each, a fresh daemon per round: its peak (VmHWM reset once idle,
 *    and VmRSS sampled) over its idle RSS after one warm-up run. Target ≤ +30 MB. Beside it, alternately and not
 *    judged, the same rounds of bench/fixtures/sse-relay.ts compiled like od (the least such a relay grows by): the
 *    figure's floor in the summary table.
 *   bun run bench/latency.ts            (OD_BENCH_REPS=N for N rounds, default 5)
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { figureOf, formatStats, type Figure } from "./support/figures.ts";
import { readBlocks, sseData, startBenchDaemon, startBenchServer, type BenchDaemon } from "./support/daemon.ts";
import { benchEnv, compileFixture, fakeBin, odBinary, workDir } from "./support/od.ts";
import { benchReps, interleaved, procStatusMb, resetPeakRss, samplePeakRss } from "./support/process.ts";
import { loadText, note, reportFigures } from "./support/report.ts";
import { percentile, summarize } from "./support/stats.ts";

const PACED_CLI = join(import.meta.dir, "fixtures", "paced-cli.ts");
const RATE = 5000;
const LATENCY_SECONDS = 2;
const MEMORY_RUNS = 10;
const MEMORY_SECONDS = 2;
/** The CLI waits this long after reading its prompt, so the SSE client is connected before the first event. */
const START_DELAY_MS = 300;

type Pace = { rate: number; seconds: number; delayMs: number };
const epochMs = () => performance.timeOrigin + performance.now();

function setup(dir: string) {
  const bin = fakeBin(dir, { opencode: PACED_CLI });
  const paceFile = join(dir, "pace.json");
  const pace = (p: Pace) => writeFileSync(paceFile, JSON.stringify(p));
  pace({ rate: RATE, seconds: LATENCY_SECONDS, delayMs: START_DELAY_MS });
  return { bin, pace, env: benchEnv(bin, dir, { PACED_CONFIG: paceFile }) };
}

/** Reads a run's SSE stream to its end; latencies (ms) of text events written after the response arrived. */
async function streamLatencies(bench: BenchDaemon, runId: string): Promise<number[]> {
  const res = await bench.events(runId);
  if (!res.ok || !res.body) throw new Error(`events: ${res.status}`);
  const connectedAt = epochMs();
  const latencies: number[] = [];
  await readBlocks(res.body, "\n\n", (block) => {
    const data = sseData(block);
    if (!data) return;
    const event = JSON.parse(data);
    if (event.type !== "agent" || event.event?.type !== "text_delta") return;
    const stamp = Number.parseFloat(event.event.delta);
    if (stamp >= connectedAt) latencies.push(epochMs() - stamp);
  });
  return latencies;
}

/** The harness floor: the same reader on the CLI's own stdout. */
async function directLatencies(bin: string, env: Record<string, string>): Promise<number[]> {
  const proc = Bun.spawn([join(bin, "opencode"), "run", "--format", "json"], { env, stdin: new TextEncoder().encode("go"), stdout: "pipe", stderr: "ignore" });
  const latencies: number[] = [];
  await readBlocks(proc.stdout, "\n", (line) => {
    if (!line) return;
    const event = JSON.parse(line);
    latencies.push(epochMs() - Number.parseFloat(event.part.text));
  });
  if ((await proc.exited) !== 0) throw new Error("paced CLI failed");
  return latencies;
}

const p99 = (latencies: number[]) => {
  if (latencies.length < RATE) throw new Error(`only ${latencies.length} events measured`);
  return percentile(latencies, 99);
};

async function measureLatency(od: string, dir: string): Promise<Figure> {
  const { bin, env } = setup(dir);
  await using bench = await startBenchDaemon(od, join(dir, "data"), env);
  const projectId = await bench.project(join(dir, "project"));
  const runs = await interleaved(benchReps(), {
    od: async () => p99(await streamLatencies(bench, await bench.startRun(projectId, "opencode"))),
    floor: async () => p99(await directLatencies(bin, env)),
  });
  return figureOf({
    id: "latency.p99",
    title: `CLI write → SSE frame at ${RATE / 1000}k events/s, p99 (baseline: harness floor)`,
    unit: "ms",
    od: runs.od,
    baseline: runs.floor,
    judged: runs.od,
    target: { op: "<=", value: 5, unit: "ms", text: "p99 ≤ 5 ms" },
  });
}

type StartServer = (dir: string, env: Record<string, string>, bin: string) => Promise<BenchDaemon>;

/** One fresh server (od, or the relay floor): idle RSS after a warm-up run, then the peak while 10 runs stream at once. */
async function memoryRound(startServer: StartServer, dir: string): Promise<{ idleMb: number; peakMb: number }> {
  const { bin, pace, env } = setup(dir);
  await using bench = await startServer(dir, env, bin);
  const projects = await Promise.all(Array.from({ length: MEMORY_RUNS }, (_, i) => bench.project(join(dir, `p${i}`))));
  pace({ rate: RATE, seconds: 0.2, delayMs: 0 });
  await streamLatencies(bench, await bench.startRun(projects[0]!, "opencode"));
  await Bun.sleep(1000);
  const idleMb = await procStatusMb(bench.pid, "VmRSS");
  if (idleMb === undefined) throw new Error("daemon gone");
  const peakReset = resetPeakRss(bench.pid);
  const sampler = samplePeakRss(bench.pid, 20, peakReset ? ["VmHWM", "VmRSS"] : ["VmRSS"]);
  pace({ rate: RATE, seconds: MEMORY_SECONDS, delayMs: 0 });
  const runIds = await Promise.all(projects.map((projectId) => bench.startRun(projectId, "opencode")));
  await Promise.all(runIds.map((runId) => streamLatencies(bench, runId)));
  const peakMb = await sampler.stop();
  return { idleMb, peakMb };
}

/**
 * od's rounds, and beside them (alternately, not judged) bench/fixtures/sse-relay.ts compiled like od: the least a
 * Bun server relaying ten CLIs' lines to SSE readers grows by.
 */
async function measureMemory(od: string, dir: string): Promise<Figure> {
  let round = 0;
  const relayArgv = (binary: string, bin: string) => [binary, "--port", "0", "--", join(bin, "opencode"), "run", "--format", "json"];
  // Its bytecode laid out by one round as the bench runs it, as od's is by `od serve`.
  const relay = await compileFixture("sse-relay", dir, (binary, profile) =>
    memoryRound((at, env, bin) => startBenchServer(relayArgv(binary, bin), { ...env, ...profile }), join(dir, "profile")).then(() => undefined),
  );
  const rounds = await interleaved(benchReps(), {
    od: () => memoryRound((at, env) => startBenchDaemon(od, join(at, "data"), env), join(dir, `round-${round++}`)),
    relay: () => memoryRound((at, env, bin) => startBenchServer(relayArgv(relay, bin), env), join(dir, `round-${round++}`)),
  });
  const growth = (side: { idleMb: number; peakMb: number }[]) => formatStats(summarize(side.map((r) => r.peakMb - r.idleMb)), "MB");
  note(`memory: peak over idle with ${MEMORY_RUNS} runs streaming: od ${growth(rounds.od)}; the least relay (bench/fixtures/sse-relay.ts) ${growth(rounds.relay)}`);
  return figureOf({
    id: "memory.tenRuns",
    title: `daemon RSS, ${MEMORY_RUNS} runs at ${RATE / 1000}k events/s each: peak (baseline: idle)`,
    unit: "MB",
    od: rounds.od.map((r) => r.peakMb),
    baseline: rounds.od.map((r) => r.idleMb),
    judged: rounds.od.map((r) => r.peakMb - r.idleMb),
    target: { op: "<=", value: 30, unit: "MB", text: "peak ≤ +30 MB over idle" },
    floor: { what: "bench/fixtures/sse-relay.ts", judged: rounds.relay.map((r) => r.peakMb - r.idleMb) },
  });
}

export async function measureLatencyAndMemory(): Promise<Figure[]> {
  using dir = workDir("latency");
  const od = await odBinary();
  note(`latency: ${loadText()}`);
  const latency = await measureLatency(od, join(dir.path, "latency"));
  note(`memory: ${loadText()}`);
  const memory = await measureMemory(od, join(dir.path, "memory"));
  return [latency, memory];
}

if (import.meta.main) reportFigures(await measureLatencyAndMemory());
