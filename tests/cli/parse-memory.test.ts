// Issue #17: `od parse --format plain` streams. Its peak memory must not grow with the transcript's size, with or
// without --out-dir (a huge artifact body is spooled to disk, not held). Run as a real process; peak RSS is the
// child's VmHWM.
import { expect, test } from "bun:test";
import { closeSync, openSync, readFileSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { spawnChild } from "../../server/platform/process.ts";
import { watchPeakRss } from "../support/peak-rss.ts";
import { tempDir } from "../support/temp.ts";

const root = join(import.meta.dir, "..", "..");
const MB = 1024 * 1024;

/** A plain transcript of about `megabytes` MB: prose, a small artifact per MB, and one artifact of a quarter of it. */
function writeTranscript(path: string, megabytes: number): void {
  const fd = openSync(path, "w");
  const line = "The agent explains what it is doing, at length, so the transcript is large.\n";
  const prose = line.repeat(Math.ceil(MB / line.length));
  const bigLine = `<div class="row">${"x".repeat(1000)}</div>\n`;
  try {
    for (let i = 0; i < megabytes; i++) {
      if (i === 1) {
        writeSync(fd, '<artifact identifier="big" type="text/html" title="Big">\n');
        for (let written = 0; written < (megabytes / 4) * MB; written += bigLine.length) writeSync(fd, bigLine);
        writeSync(fd, "</artifact>\n");
      }
      writeSync(fd, prose);
      writeSync(fd, `<artifact identifier="page-${i}" type="text/markdown">\n# Page ${i}\n</artifact>\n`);
    }
  } finally {
    closeSync(fd);
  }
}

/** Runs `od parse --format plain --out-dir out FILE`; returns its exit code, stdout size and peak RSS in kB. */
async function parsePeak(dir: string, file: string): Promise<{ code: number | null; stdoutBytes: number; peakKb: number }> {
  const child = await spawnChild({
    argv: [process.execPath, join(root, "server", "main.ts"), "parse", "--format", "plain", "--out-dir", "out", file],
    cwd: dir,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir },
  });
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

test("od parse --format plain keeps peak memory flat as the transcript grows from 20 MB to 80 MB", async () => {
  using dir = tempDir("od-parse-memory-");
  const small = join(dir.path, "small.txt");
  const large = join(dir.path, "large.txt");
  writeTranscript(small, 20);
  writeTranscript(large, 80);

  const smallRun = await parsePeak(dir.path, small);
  expect(smallRun.code).toBe(0);
  const largeRun = await parsePeak(dir.path, large);
  expect(largeRun.code).toBe(0);
  expect(largeRun.stdoutBytes).toBeGreaterThan(statSync(large).size);
  // Both runs' artifacts landed: the big one (a quarter of each transcript) whole, and the small ones.
  expect(statSync(join(dir.path, "out", "big.html")).size).toBeGreaterThanOrEqual(5 * MB - 2048);
  expect(statSync(join(dir.path, "out", "big-2.html")).size).toBeGreaterThanOrEqual(20 * MB - 2048);
  expect(readFileSync(join(dir.path, "out", "page-79.md"), "utf8")).toBe("# Page 79\n");

  // 60 MB more input: holding the text (or the big artifact) would add more than that; streaming adds GC noise.
  const growthMb = (largeRun.peakKb - smallRun.peakKb) / 1024;
  expect(smallRun.peakKb).toBeGreaterThan(0);
  expect(growthMb).toBeLessThan(30);
}, 120_000);
