/**
 * The compiled binary keeps its per-event code out of JavaScriptCore's FTL too: there the functions named by
 * `perEvent` are marked only once `od run`'s stream proves long (server/platform/jit-tiers.ts), so a short run never
 * loads what marks them. A long claude answer through the binary's `od run`: nothing compiled with the FTL.
 * (tests/runs/per-event-tiers.test.ts checks every stream format from source.)
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, rmSync } from "node:fs";
import { longClaudeRun } from "../support/ftl-report.ts";
import { binaryCopy } from "./support/binary.ts";

const LINES = 100_000;
let bin: string;
let binDir: string;

beforeAll(async () => {
  ({ bin, dir: binDir } = await binaryCopy());
  chmodSync(bin, 0o755);
}, 180_000);
afterAll(() => {
  if (binDir) rmSync(binDir, { recursive: true, force: true });
});

describe("the binary's per-event path and the FTL", () => {
  test(`a ${LINES / 1000}k-line claude run through the binary's od run compiles none of od's code with the FTL`, async () => {
    const run = await longClaudeRun([bin], LINES);
    expect(run.code).toBe(0);
    expect(run.lines).toBeGreaterThan(LINES);
    expect(run.ftlCompiled).toEqual([]);
  }, 120_000);
});
