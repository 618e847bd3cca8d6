#!/usr/bin/env bun
/**
 * `npm run bench`: builds dist/od once (as `npm run build` does), runs every benchmark as its own process, one
 * after another, and ends with ONE summary table (figure, od, baseline, ratio, target, verdict). Exits non-zero
 * when any target is missed or any benchmark fails.
 *   bun run bench/run.ts [NAME…]        only these (startup, od-run, acp-run, api-run, concurrency, parse, latency, detect, memory, page)
 *   OD_BENCH_REPS=3 bun run bench/run.ts   the quick mode (default 5 interleaved rounds per figure)
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatSummary, parseFigureLines, summaryExitCode, type BenchFailure } from "./support/figures.ts";
import { odBinary } from "./support/od.ts";
import { benchReps } from "./support/process.ts";
import { loadText } from "./support/report.ts";

/** memory.ts (growth with input size) judges itself and reports a miss by its exit code. */
const BENCHES = ["startup", "od-run", "acp-run", "api-run", "concurrency", "parse", "latency", "detect", "memory", "page"] as const;

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(BENCHES as readonly string[]).includes(name));
if (unknown.length) {
  console.error(`unknown benchmark(s): ${unknown.join(", ")} (known: ${BENCHES.join(", ")})`);
  process.exit(2);
}
const selected = wanted.length ? BENCHES.filter((name) => wanted.includes(name)) : [...BENCHES];
const resultsFile = join(tmpdir(), `od-bench-results-${process.pid}.jsonl`);
const failures: BenchFailure[] = [];

console.log(`od benchmarks: ${selected.join(", ")}; ${benchReps()} interleaved rounds each; ${loadText()}`);
try {
  await odBinary();
  for (const name of selected) {
    console.log(`\n== ${name}`);
    const started = performance.now();
    const proc = Bun.spawn([process.execPath, "run", join(import.meta.dir, `${name}.ts`)], {
      env: { ...process.env, OD_BENCH_RESULTS: resultsFile, OD_BENCH_SKIP_BUILD: "1" },
      stdout: "inherit",
      stderr: "inherit",
    });
    const code = await proc.exited;
    console.log(`   ${name} took ${((performance.now() - started) / 1000).toFixed(0)} s`);
    if (code !== 0) failures.push({ bench: name, message: `exited ${code}` });
  }
  const figures = existsSync(resultsFile) ? parseFigureLines(readFileSync(resultsFile, "utf8")) : [];
  console.log(`\n${formatSummary(figures, failures)}`);
  console.log(`(median over the rounds, min–max in brackets; verdicts judge the median; ${loadText()})`);
  process.exitCode = summaryExitCode(figures, failures);
} finally {
  rmSync(resultsFile, { force: true });
}
