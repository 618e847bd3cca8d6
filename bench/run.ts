#!/usr/bin/env bun
/** Runs every benchmark in bench/ one after another (each prints its own ratio against an in-run baseline). */
import { readdirSync } from "node:fs";
import { join } from "node:path";

const dir = import.meta.dir;
const benches = readdirSync(dir).filter((f) => f.endsWith(".ts") && !["run.ts", "support.ts"].includes(f)).sort();
let failed = 0;
for (const file of benches) {
  console.log(`\n== ${file}`);
  const proc = Bun.spawn([process.execPath, "run", join(dir, file)], { stdout: "inherit", stderr: "inherit" });
  if ((await proc.exited) !== 0) failed++;
}
process.exit(failed ? 1 : 0);
