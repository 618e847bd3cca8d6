#!/usr/bin/env bun
/**
 * Stream-parser throughput. For every registered parser variant, builds a ≥50 MB transcript by repeating that
 * format's fixture lines, then times (a) the full reader (bytes in 64 KiB chunks → lines → parser → event batches) and
 * (b) a JSON.parse-only loop over the same lines, in the same run (best of 3 interleaved rounds). Target: every parser ≥ 50 % of the baseline.
 *
 *   node_modules/.bin/bun run bench/parse.ts [--mb 50]
 */
import { readFileSync } from "node:fs";
import { createStreamParser, PARSER_VARIANTS, takesTextChunks, type StreamFormat } from "../server/runtimes/streams/index.ts";
import { readStreamEventBatches } from "../server/runtimes/streams/read-events.ts";
import { listFixtures } from "../tests/runtimes/streams/golden.ts";

const mbArg = process.argv.indexOf("--mb");
const targetBytes = (mbArg > 0 ? Number(process.argv[mbArg + 1]) : 50) * 1024 * 1024;
const CHUNK = 64 * 1024;
const ROUNDS = 3;
const fixtures = listFixtures();

function sampleLines(streamFormat: StreamFormat, eventParser: string | undefined): string[] {
  const wanted = eventParser === "mimo" ? "opencode" : eventParser;
  const files = fixtures.filter((f) => (streamFormat === "plain" ? true : f.streamFormat === streamFormat && f.eventParser === wanted));
  return files.flatMap((f) => readFileSync(f.file, "utf8").split("\n").filter((l) => l.trim() !== ""));
}

function buildTranscript(lines: string[]): { text: string; lines: string[] } {
  const unit = `${lines.join("\n")}\n`;
  const repeat = Math.ceil(targetBytes / Buffer.byteLength(unit));
  const text = unit.repeat(repeat);
  return { text, lines: text.split("\n").filter((l) => l !== "") };
}

async function* chunksOf(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += CHUNK) yield bytes.subarray(i, i + CHUNK);
}

function baseline(lines: string[]): number {
  const start = performance.now();
  let n = 0;
  for (const line of lines) {
    try {
      if (JSON.parse(line)) n++;
    } catch {
      n--;
    }
  }
  if (n === Number.MIN_SAFE_INTEGER) console.log(n);
  return performance.now() - start;
}

const rows: string[] = [];
let worst = Infinity;
for (const { streamFormat, eventParser } of PARSER_VARIANTS) {
  const label = `${streamFormat}${eventParser ? `/${eventParser}` : ""}`;
  const sample = sampleLines(streamFormat, eventParser);
  if (sample.length === 0) {
    rows.push(`${label.padEnd(34)} no fixtures, skipped`);
    continue;
  }
  const { text, lines } = buildTranscript(sample);
  const bytes = new TextEncoder().encode(text);
  const mb = bytes.length / 1024 / 1024;
  // Best of ROUNDS, interleaved: the machine is shared, and the first touch of fresh memory is noisy.
  let baseMs = Infinity;
  let parseMs = Infinity;
  let pushMs = Infinity;
  let events = 0;
  for (let round = 0; round < ROUNDS; round++) {
    baseMs = Math.min(baseMs, baseline(lines));
    events = 0;
    const start = performance.now();
    for await (const batch of readStreamEventBatches(chunksOf(bytes), streamFormat, eventParser, { cwd: "/project" })) events += batch.length;
    parseMs = Math.min(parseMs, performance.now() - start);
    // Parser alone over pre-split lines (excludes byte decoding and line splitting).
    const parser = createStreamParser(streamFormat, eventParser, { cwd: "/project" });
    const pushStart = performance.now();
    if (!takesTextChunks(streamFormat)) for (const line of lines) parser.push(line);
    pushMs = Math.min(pushMs, performance.now() - pushStart);
  }

  const ratio = baseMs / parseMs;
  worst = Math.min(worst, ratio);
  rows.push(
    `${label.padEnd(34)} ${mb.toFixed(1).padStart(6)} MB  reader ${(mb / (parseMs / 1000)).toFixed(0).padStart(5)} MB/s ${((events / parseMs) * 1000).toFixed(0).padStart(9)} ev/s  ` +
      `parser-only ${takesTextChunks(streamFormat) ? "  n/a" : (mb / (pushMs / 1000)).toFixed(0).padStart(5)} MB/s  JSON.parse ${(mb / (baseMs / 1000)).toFixed(0).padStart(5)} MB/s  ratio ${(ratio * 100).toFixed(0)}%${ratio < 0.5 ? "  BELOW TARGET" : ""}`,
  );
}
console.log(rows.join("\n"));
console.log(`worst ratio (reader vs JSON.parse-only): ${(worst * 100).toFixed(0)}% (target ≥ 50%)`);
