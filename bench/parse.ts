#!/usr/bin/env bun
/**
 * `od parse --format claude-stream-json FILE > /dev/null` (dist/od, a process) over a 50 MiB transcript made of the
 * recorded Claude fixtures, against a Bun script that reads the same file and `JSON.parse`s every line, each in its
 * own process, alternately, after one untimed run of each. Both are timed from spawn to exit, so process start, file
 * read and output count. Throughput in MB/s; target: od ≥ 90 % of the baseline.
 *   bun run bench/parse.ts            (OD_BENCH_REPS=N for N rounds, default 5)
 */
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { listFixtures } from "../tests/runtimes/streams/golden.ts";
import { figureOf, type Figure } from "./support/figures.ts";
import { compileFixture, odBinary, ROOT, workDir } from "./support/od.ts";
import { benchReps, interleaved, measureProcess } from "./support/process.ts";
import { loadText, note, reportFigures } from "./support/report.ts";
import { summarize } from "./support/stats.ts";

const TARGET_BYTES = 50 * 1024 * 1024;
const BASELINE_SCRIPT = join(import.meta.dir, "fixtures", "json-lines.ts");

/** The recorded Claude transcripts (plain and partial-message), repeated to at least 50 MiB. */
function writeTranscript(path: string): number {
  const claude = listFixtures().filter((f) => f.streamFormat === "claude-stream-json" && /^claude(-partial)?\//.test(relative(join(ROOT, "tests", "fixtures"), f.file)));
  if (claude.length === 0) throw new Error("no Claude fixtures found");
  const unit = claude.map((f) => readFileSync(f.file, "utf8").trimEnd() + "\n").join("");
  writeFileSync(path, unit.repeat(Math.ceil(TARGET_BYTES / Buffer.byteLength(unit))));
  return statSync(path).size;
}

export async function measureParse(): Promise<Figure[]> {
  using dir = workDir("parse");
  const od = await odBinary();
  const file = join(dir.path, "transcript.jsonl");
  const bytes = writeTranscript(file);
  const mb = bytes / 1024 / 1024;
  const env = { PATH: "/usr/bin:/bin", HOME: dir.path };
  // The same script compiled exactly like od (its bytecode laid out by a run over a small transcript): the least
  // program of od's build that does the work, beside the script as Bun runs it.
  const small = join(dir.path, "small.jsonl");
  writeFileSync(small, readFileSync(file, "utf8").slice(0, 1024 * 1024).replace(/[^\n]*$/, ""));
  const compiled = await compileFixture("json-lines", dir.path, (binary, profile) =>
    measureProcess([binary, small], { env: { ...env, ...profile }, stdout: "devnull" }).then(() => undefined),
  );
  note(`parse: ${mb.toFixed(1)} MiB; ${loadText()}`);
  const runs = await interleaved(benchReps(), {
    od: () => measureProcess([od, "parse", "--format", "claude-stream-json", file], { env, stdout: "devnull" }),
    baseline: () => measureProcess([process.execPath, BASELINE_SCRIPT, file], { env, stdout: "devnull" }),
    compiled: () => measureProcess([compiled, file], { env, stdout: "devnull" }),
  });
  const rate = (ms: number) => mb / (ms / 1000);
  const cpu = (side: typeof runs.od) => summarize(side.map((r) => r.cpuMs));
  note(`parse: CPU ms od ${JSON.stringify(cpu(runs.od))}, baseline ${JSON.stringify(cpu(runs.baseline))}; ${loadText()}`);
  return [
    figureOf({
      id: "parse.throughput",
      title: "od parse claude-stream-json 50 MiB → /dev/null",
      unit: "MB/s",
      od: runs.od.map((r) => rate(r.ms)),
      baseline: runs.baseline.map((r) => rate(r.ms)),
      judged: runs.od.map((r, i) => (100 * runs.baseline[i]!.ms) / r.ms),
      target: { op: ">=", value: 90, unit: "%", text: "≥ 90 % of read + JSON.parse" },
      floor: { what: "bench/fixtures/json-lines.ts compiled like od", judged: runs.compiled.map((r, i) => (100 * runs.baseline[i]!.ms) / r.ms) },
    }),
  ];
}

if (import.meta.main) reportFigures(await measureParse());
