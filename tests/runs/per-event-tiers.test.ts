// Long streams compile none of od's per-event code with JavaScriptCore's top tier (the FTL): each function of that
// path is named in server/platform/jit-tiers.ts's `perEvent` by the module that defines it. A function added to the
// path (or renamed out of it) fails here, by name. From source, where functions are marked as they are named
// (tests/e2e/per-event-tiers.e2e.test.ts checks the binary, which marks them once a stream proves long):
// - `od run` itself (reader, parser, fold, log, printer, pacers): 60k lines of a claude answer with tool calls;
// - the daemon's run of 50k, read through its HTTP API as SSE (the log's readers, the frames, the store's batches);
// - every line-oriented stream format with a fixture transcript (tests/fixtures/, as the golden test reads them): its
//   largest transcript repeated into ~100k lines, through its reader and parser into a fold (tests/support/
//   stream-through-fold.ts): many turns, many tool calls, as a long session streams them.
import { describe, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { spawnChild } from "../../server/platform/process.ts";
import { ftlCompiled, longClaudeApiRun, longClaudeRun, outputOf, REPORT_FTL } from "../support/ftl-report.ts";
import { FIXTURES_DIR, listFixtures, type Fixture } from "../runtimes/streams/golden.ts";

const root = join(import.meta.dir, "..", "..");
const RUN_LINES = 60_000;
const FORMAT_LINES = 100_000;
const API_EVENTS = 50_000;
const TIMEOUT = 120_000;

/** The largest transcript of each stream format (and event parser) the fixtures have. */
function largestPerFormat(fixtures: Fixture[]): Fixture[] {
  const largest = new Map<string, Fixture>();
  for (const fixture of fixtures) {
    const format = `${fixture.streamFormat}/${fixture.eventParser ?? ""}`;
    const known = largest.get(format);
    if (!known || statSync(fixture.file).size > statSync(known.file).size) largest.set(format, fixture);
  }
  return [...largest.values()];
}

describe("the per-event path and the FTL", () => {
  test(`a ${RUN_LINES / 1000}k-line claude run through od run compiles none of od's code with the FTL`, async () => {
    const run = await longClaudeRun([process.execPath, join(root, "server", "main.ts")], RUN_LINES);
    expect(run.code).toBe(0);
    expect(run.lines).toBeGreaterThan(RUN_LINES);
    expect(run.ftlCompiled).toEqual([]);
  }, TIMEOUT);

  test(`a ${API_EVENTS / 1000}k-event HTTP API run through the daemon compiles none of od's code with the FTL`, async () => {
    const run = await longClaudeApiRun([process.execPath, join(root, "server", "main.ts")], API_EVENTS);
    expect(run.frames).toBeGreaterThan(API_EVENTS);
    expect(run.ftlCompiled).toEqual([]);
  }, TIMEOUT);

  for (const fixture of largestPerFormat(listFixtures())) {
    const format = `${fixture.streamFormat}${fixture.eventParser ? `/${fixture.eventParser}` : ""}`;
    test(`${format}: ${relative(FIXTURES_DIR, fixture.file)} repeated into ${FORMAT_LINES / 1000}k lines compiles none of od's code with the FTL`, async () => {
      const child = await spawnChild({
        argv: [process.execPath, join(root, "tests", "support", "stream-through-fold.ts"), fixture.file, fixture.streamFormat, fixture.eventParser ?? "-", fixture.cwd, String(FORMAT_LINES)],
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...REPORT_FTL },
      });
      const { stdout, stderr, code } = await outputOf(child);
      expect(code).toBe(0);
      expect(Number(stdout.trim())).toBeGreaterThan(0);
      expect(ftlCompiled(stderr)).toEqual([]);
    }, TIMEOUT);
  }

  test("the report's reading", () => {
    // A recorded report (bun with the flag above, its script's own module left out): an arrow function, the
    // Array.prototype.map that called it, and a function `str`.
    const report = readFileSync(join(root, "tests", "fixtures", "jit", "ftl-report.txt"), "utf8");
    expect(ftlCompiled(report)).toEqual(["(anonymous)", "map", "str"]);
  });
});
