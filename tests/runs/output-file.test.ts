import { expect, test } from "bun:test";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { readOutputRange, runOutputPath, RunOutputFile } from "../../server/runs/output-file.ts";
import { tempDir } from "../support/temp.ts";

test("a run's output file is private, keeps characters whole across block writes, and is served in byte ranges", async () => {
  using dir = tempDir("od-output-");
  const outputDir = join(dir.path, "run-output");
  const file = new RunOutputFile(outputDir, "run_1");
  // The block boundary falls between the two halves of an emoji's surrogate pair.
  const first = `${"a".repeat(256 * 1024 - 1)}\uD83D`;
  file.write(first);
  file.write("\uDE00 end");
  file.close();
  file.write("ignored after close");
  const path = runOutputPath(outputDir, "run_1");
  expect(readFileSync(path, "utf8")).toBe(`${"a".repeat(256 * 1024 - 1)}😀 end`);
  expect(statSync(path).mode & 0o777).toBe(0o600);
  expect(statSync(outputDir).mode & 0o777).toBe(0o700);

  const range = readOutputRange(outputDir, "run_1", 256 * 1024 - 1, 8)!;
  expect(range).toMatchObject({ totalBytes: 256 * 1024 - 1 + 8, start: 256 * 1024 - 1, end: 256 * 1024 + 7 });
  expect(await new Response(range.body).text()).toBe("😀 end");
  expect(readOutputRange(outputDir, "run_2", 0)).toBeUndefined();
});

test("a run that never spills writes no file", () => {
  using dir = tempDir("od-output-");
  const file = new RunOutputFile(join(dir.path, "run-output"), "run_1");
  file.close();
  expect(existsSync(join(dir.path, "run-output"))).toBe(false);
});
