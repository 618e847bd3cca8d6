/**
 * How a benchmark hands over its figures: as JSON lines appended to `$OD_BENCH_RESULTS` when bench/run.ts runs it,
 * and always as its own table on stdout. Run alone, a benchmark exits non-zero when it misses a target.
 */
import { appendFileSync } from "node:fs";
import { loadavg } from "node:os";
import { formatSummary, summaryExitCode, verdictOf, type Figure } from "./figures.ts";

export function reportFigures(figures: readonly Figure[]): void {
  const resultsFile = process.env.OD_BENCH_RESULTS;
  if (resultsFile) {
    appendFileSync(resultsFile, figures.map((figure) => `${JSON.stringify(figure)}\n`).join(""));
    for (const figure of figures) note(`${figure.id}: ${verdictOf(figure).text}`);
    return;
  }
  console.log(`\n${formatSummary(figures)}`);
  process.exitCode = summaryExitCode(figures);
}

/** The 1/5/15-minute load averages, so a reader knows how busy the (shared) machine was. */
export function loadText(): string {
  return `load ${loadavg().map((l) => l.toFixed(2)).join(" ")} on ${navigator.hardwareConcurrency} cores`;
}

/** A progress line on stderr (stdout carries the table). */
export function note(text: string): void {
  process.stderr.write(`  ${text}\n`);
}
