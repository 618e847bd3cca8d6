#!/usr/bin/env bun
/**
 * Stream-parser throughput. For every registered parser variant, builds a ≥50 MB transcript by repeating that
 * format's fixture lines, then times (a) the full reader (bytes in 64 KiB chunks → lines → parser → event batches)
 * and (b) a JSON.parse-only loop over the same lines, in the same run. Target: every reader ≥ 50 % of its baseline.
 *
 * Fairness and stability (the machine is shared and noisy):
 * - the baseline's lines are decoded one by one from the same bytes the reader gets, so both parse strings of the
 *   same representation (an ASCII line is a Latin-1 string in both, not a slice of one big UTF-16 transcript);
 * - one untimed warm-up round per variant, then ROUNDS interleaved rounds (baseline, reader, parser alone), best of
 *   each, with a minor GC before every timed section so one section's young garbage is not collected on another's
 *   clock (a forced full GC hands the heap's memory back, and every section then re-faults it: all numbers, the
 *   baseline's included, fall about 3x on this VM);
 * - each section is timed by the process's CPU time (user + system, all threads, so GC helpers count) as well as
 *   by the wall clock; the ratio is judged on CPU time, which other processes on the machine move much less than
 *   wall time (on a loaded machine that mostly measures the scheduler). Both ratios are printed;
 * - the load average is printed before and after, so a reader knows how loaded the machine was.
 *
 *   node_modules/.bin/bun run bench/parse.ts [--mb 50] [--rounds 5] [--only codex]
 */
import { loadavg } from "node:os";
import { readFileSync } from "node:fs";
import { createStreamParser, PARSER_VARIANTS, takesTextChunks, type StreamFormat } from "../server/runtimes/streams/index.ts";
import { readStreamEventBatches } from "../server/runtimes/streams/read-events.ts";
import { listFixtures } from "../tests/runtimes/streams/golden.ts";

function arg(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
}

const targetBytes = Number(arg("--mb") ?? 50) * 1024 * 1024;
const ROUNDS = Number(arg("--rounds") ?? 5);
const only = arg("--only");
const CHUNK = 64 * 1024;
const CWD = "/project";
const fixtures = listFixtures();

function sampleLines(streamFormat: StreamFormat, eventParser: string | undefined): string[] {
  const wanted = eventParser === "mimo" ? "opencode" : eventParser;
  const files = fixtures.filter((f) => (streamFormat === "plain" ? true : f.streamFormat === streamFormat && f.eventParser === wanted));
  return files.flatMap((f) => readFileSync(f.file, "utf8").split("\n").filter((l) => l.trim() !== ""));
}

/** The transcript as bytes, and its lines each decoded on its own from those bytes (what a line reader yields). */
function buildTranscript(sample: string[]): { bytes: Uint8Array; lines: string[] } {
  const unit = `${sample.join("\n")}\n`;
  const repeat = Math.ceil(targetBytes / Buffer.byteLength(unit));
  const bytes = new TextEncoder().encode(unit.repeat(repeat));
  const decoder = new TextDecoder();
  const lines: string[] = [];
  for (let start = 0; start < bytes.length; ) {
    const nl = bytes.indexOf(0x0a, start);
    const end = nl < 0 ? bytes.length : nl;
    if (end > start) lines.push(decoder.decode(bytes.subarray(start, end)));
    start = end + 1;
  }
  return { bytes, lines };
}

async function* chunksOf(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += CHUNK) yield bytes.subarray(i, i + CHUNK);
}

/** JSON.parse of every line; the count keeps the work observable so it cannot be optimised away. */
function baseline(lines: string[]): number {
  let n = 0;
  for (const line of lines) {
    try {
      if (JSON.parse(line)) n++;
    } catch {
      n--;
    }
  }
  return n;
}

async function reader(bytes: Uint8Array, streamFormat: StreamFormat, eventParser: string | undefined): Promise<number> {
  let events = 0;
  for await (const batch of readStreamEventBatches(chunksOf(bytes), streamFormat, eventParser, { cwd: CWD })) events += batch.length;
  return events;
}

/** The parser alone over the pre-split lines (no byte decoding or line splitting). */
function parserAlone(lines: string[], streamFormat: StreamFormat, eventParser: string | undefined): number {
  const parser = createStreamParser(streamFormat, eventParser, { cwd: CWD });
  let events = 0;
  for (const line of lines) events += parser.push(line).length;
  return events + parser.end().length;
}

type Timing = { cpuMs: number; wallMs: number };

async function timed<T>(work: () => T | Promise<T>): Promise<Timing & { value: T }> {
  Bun.gc(false);
  const cpu = process.cpuUsage();
  const start = performance.now();
  const value = await work();
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { cpuMs: (used.user + used.system) / 1000, wallMs, value };
}

/** Keeps the best CPU and best wall time seen. */
function best(into: Timing, sample: Timing): void {
  into.cpuMs = Math.min(into.cpuMs, sample.cpuMs);
  into.wallMs = Math.min(into.wallMs, sample.wallMs);
}

const none = (): Timing => ({ cpuMs: Infinity, wallMs: Infinity });

const fmtRate = (n: number, width: number) => n.toFixed(0).padStart(width);
const loadBefore = loadavg();
let worst = Infinity;
let worstLabel = "";
for (const { streamFormat, eventParser } of PARSER_VARIANTS) {
  const label = `${streamFormat}${eventParser ? `/${eventParser}` : ""}`;
  if (only && !label.includes(only)) continue;
  const sample = sampleLines(streamFormat, eventParser);
  if (sample.length === 0) {
    console.log(`${label.padEnd(31)} no fixtures, skipped`);
    continue;
  }
  const { bytes, lines } = buildTranscript(sample);
  const mb = bytes.length / 1024 / 1024;
  const byLines = !takesTextChunks(streamFormat);

  // Warm-up: JIT tiers and allocator pools settle before anything is timed.
  baseline(lines);
  await reader(bytes, streamFormat, eventParser);
  if (byLines) parserAlone(lines, streamFormat, eventParser);

  const base = none();
  const read = none();
  const alone = none();
  let events = 0;
  for (let round = 0; round < ROUNDS; round++) {
    best(base, await timed(() => baseline(lines)));
    const sample = await timed(() => reader(bytes, streamFormat, eventParser));
    best(read, sample);
    events = sample.value;
    if (byLines) best(alone, await timed(() => parserAlone(lines, streamFormat, eventParser)));
  }

  const ratio = base.cpuMs / read.cpuMs;
  if (ratio < worst) [worst, worstLabel] = [ratio, label];
  const perCpuSecond = (amount: number, t: Timing) => amount / (t.cpuMs / 1000);
  console.log(
    `${label.padEnd(31)} ${mb.toFixed(1).padStart(5)} MB  reader ${fmtRate(perCpuSecond(mb, read), 4)} MB/s ${fmtRate(perCpuSecond(events, read), 8)} ev/s  ` +
      `parser alone ${byLines ? fmtRate(perCpuSecond(mb, alone), 4) : " n/a"} MB/s  JSON.parse ${fmtRate(perCpuSecond(mb, base), 4)} MB/s  ` +
      `ratio ${(ratio * 100).toFixed(0).padStart(3)}% (wall ${((base.wallMs / read.wallMs) * 100).toFixed(0).padStart(3)}%)${ratio < 0.5 ? "  BELOW TARGET" : ""}`,
  );
}
const loadAfter = loadavg();
console.log(`rates are per CPU second; worst ratio (reader vs JSON.parse-only, CPU time, best of ${ROUNDS}): ${(worst * 100).toFixed(0)}% (${worstLabel}; target ≥ 50%)`);
console.log(`load average before ${loadBefore.map((l) => l.toFixed(2)).join(" ")}, after ${loadAfter.map((l) => l.toFixed(2)).join(" ")} (2 cores)`);
