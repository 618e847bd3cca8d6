#!/usr/bin/env bun
/**
 * Regenerates `<scenario>.events.json` next to every stream fixture (tests/fixtures/<cli>/*.jsonl) from the current
 * parsers. Review the diff before committing: the golden files are the parsers' specification.
 *
 *   node_modules/.bin/bun run scripts/update-golden.ts          # write
 *   node_modules/.bin/bun run scripts/update-golden.ts --check  # exit 1 when any golden file is stale
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { relative } from "node:path";
import { listFixtures, parseFixture } from "../tests/runtimes/streams/golden.ts";

const check = process.argv.includes("--check");
let stale = 0;
for (const fixture of listFixtures()) {
  const text = `${JSON.stringify(await parseFixture(fixture), null, 2)}\n`;
  const name = relative(process.cwd(), fixture.goldenFile);
  const current = existsSync(fixture.goldenFile) ? readFileSync(fixture.goldenFile, "utf8") : undefined;
  if (current === text) continue;
  stale++;
  if (check) console.log(`stale: ${name}`);
  else {
    writeFileSync(fixture.goldenFile, text);
    console.log(`wrote: ${name}`);
  }
}
if (check && stale > 0) process.exit(1);
