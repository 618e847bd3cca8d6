// Issue #17: `od run` keeps its memory flat as a run grows (the folded answer is bounded; the rest streams to disk).
// A real process with a fake copilot CLI on PATH; peak RSS is the od process's VmHWM.
import { expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnChild } from "../../server/platform/process.ts";
import { writeShim } from "../support/fake-agents.ts";
import { watchPeakRss } from "../support/peak-rss.ts";
import { tempDir } from "../support/temp.ts";

const root = join(import.meta.dir, "..", "..");
const DELTA_LINE = JSON.stringify({
  type: "assistant.message_delta",
  data: { messageId: "m1", deltaContent: "line {{i}}: the agent keeps talking about what it does, at some length.\n" },
  ephemeral: true,
  id: "x",
  timestamp: "t",
  parentId: "p",
});

/**
 * Starts `od run` from source in `dir` on a copilot that streams `lines` text deltas; `bunArgs` go before the entry
 * point (a preload), `env` adds to its environment.
 */
function startCopilotRun(dir: string, lines: number, options: { bunArgs?: string[]; env?: Record<string, string> } = {}) {
  const bin = join(dir, "bin");
  const project = join(dir, "project");
  mkdirSync(bin);
  mkdirSync(project);
  writeShim(bin, "copilot");
  const script = join(dir, "script.json");
  writeFileSync(script, JSON.stringify([{ readAll: true }, { repeat: lines, out: DELTA_LINE }, { exit: 0 }]));
  return spawnChild({
    argv: [process.execPath, ...(options.bunArgs ?? []), join(root, "server", "main.ts"), "run", "--agent", "copilot", "--project", project, "--data-dir", join(dir, "data"), "hello"],
    env: { PATH: `${bin}:/usr/bin:/bin`, HOME: dir, FAKE_CLI_SCRIPT: `@${script}`, ...options.env },
  });
}

/** Runs `od run` on a copilot that streams `lines` text deltas; returns its exit code, answer size and peak RSS (kB). */
async function runPeak(lines: number): Promise<{ code: number | null; stdoutBytes: number; peakKb: number }> {
  using dir = tempDir("od-run-memory-");
  const child = await startCopilotRun(dir.path, lines);
  const peak = watchPeakRss(child.pid);
  let stdoutBytes = 0;
  try {
    const stderr = (async () => {
      for await (const _ of child.stderr);
    })();
    for await (const chunk of child.stdout) stdoutBytes += chunk.length;
    peak.sample();
    await stderr;
    const code = (await child.exited).code;
    return { code, stdoutBytes, peakKb: peak.stop() };
  } finally {
    peak.stop();
  }
}

test("od run's peak memory stays flat from 30k to 300k streamed lines", async () => {
  const short = await runPeak(30_000);
  expect(short.code).toBe(0);
  const long = await runPeak(300_000);
  expect(long.code).toBe(0);
  // Every line reached stdout (about 72 bytes each).
  expect(long.stdoutBytes).toBeGreaterThan(300_000 * 70);
  // 10× the run: holding its answer added over 200 MB; a bounded fold adds GC and sqlite cache noise (30-45 MB).
  const growthMb = (long.peakKb - short.peakKb) / 1024;
  expect(short.peakKb).toBeGreaterThan(0);
  expect(growthMb).toBeLessThan(80);
}, 120_000);

test("od run collects everything as its run streams, as its floor does", async () => {
  // ~40k deltas of ~75 characters log ~7 MB of event JSON: four collections or more, besides the one before the
  // answer is written (the only one before od run paced its own run).
  using dir = tempDir("od-run-collections-");
  const counted = join(dir.path, "collections");
  const preload = join(root, "tests", "support", "full-collections-preload.ts");
  const child = await startCopilotRun(dir.path, 40_000, { bunArgs: ["--preload", preload], env: { OD_TEST_FULL_COLLECTIONS: counted } });
  const stderr = (async () => {
    for await (const _ of child.stderr);
  })();
  for await (const _ of child.stdout);
  await stderr;
  expect((await child.exited).code).toBe(0);
  expect(Number(readFileSync(counted, "utf8"))).toBeGreaterThanOrEqual(4);
}, 60_000);
