// The start-up profiles the binary is laid out by: every start (serve, a first run, the run after it) really ran, so
// the profiles name the functions they used; a binary that cannot start fails the recording with its name, and the
// build then goes on without profiles instead of failing.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildEmbeddedAssets, recordStartupProfiles } from "../../scripts/build-binary.ts";
import { recordBytecodeOrder } from "../../scripts/bytecode-profile.ts";
import { withBuildLock } from "../support/build-lock.ts";
import { tempDir } from "../support/temp.ts";

/** Entries of an order file: after its version line, one "<kind> <hash>" line per module or function used. */
function entriesIn(file: string): number {
  const lines = readFileSync(file, "utf8").split("\n");
  expect(lines[0]).toMatch(/^v\d+$/);
  return lines.filter((line) => /^[A-Z] [0-9a-f]+$/.test(line)).length;
}

describe("start-up profiles", () => {
  test("a first build is started as `od serve`, as a first `od run` and as the run after it, and each start leaves its profile", async () => {
    using dir = tempDir("od-profile-");
    // What the binary embeds (UI, OpenAPI document, DSH tarball) is built first, as `npm run build` does.
    const files = await withBuildLock(async () => {
      await buildEmbeddedAssets();
      return recordStartupProfiles(dir.path);
    });
    // Ranked: the repeat run (a data dir in use) before the first one, whose own functions come last.
    expect(files.map((file) => file.slice(dir.path.length + 1))).toEqual(["serve.order", "run.order", "first-run.order"]);
    // Thousands of entries each: the serve profile covers the engine's first answers, the run ones a whole run.
    const [serve, run, firstRun] = files.map(entriesIn);
    expect(serve).toBeGreaterThan(5000);
    expect(run).toBeGreaterThan(5000);
    expect(firstRun).toBeGreaterThan(5000);
    // Two runs, not one run twice: the first creates the database and probes the agent, the repeat does neither.
    expect(readFileSync(files[1]!, "utf8")).not.toBe(readFileSync(files[2]!, "utf8"));
  }, 120_000);

  test("a binary that does not start fails the recording, naming the start that failed", async () => {
    using dir = tempDir("od-profile-bad-");
    await expect(recordBytecodeOrder("/bin/false", dir.path)).rejects.toThrow(/od serve/);
  }, 60_000);
});
