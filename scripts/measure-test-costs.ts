#!/usr/bin/env bun
/**
 * Measures what each test file costs alone (the wall time of one `bun test` of it) and writes scripts/test-costs.txt,
 * which scripts/test.sh deals the files into parts by: "<seconds> <path>" a line, slowest first.
 *
 *   bun scripts/measure-test-costs.ts                 every test file (takes as long as the whole suite run serially)
 *   bun scripts/measure-test-costs.ts FILE…           only those; the table keeps the others' figures
 *
 * Measure on a quiet machine: the figures only rank and balance the parts, so they need to be right relative to
 * each other, not exact. Files gone from the tree are dropped from the table.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { spawnChild } from "../server/platform/process.ts";

const root = join(import.meta.dir, "..");
export const TEST_COSTS_FILE = join(root, "scripts", "test-costs.txt");

/** The table as path → seconds (empty when there is none yet). */
export function readTestCosts(file = TEST_COSTS_FILE): Map<string, number> {
  const costs = new Map<string, number>();
  if (!existsSync(file)) return costs;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const [seconds, path] = line.trim().split(/\s+/);
    if (seconds && path && Number.isFinite(Number(seconds))) costs.set(path, Number(seconds));
  }
  return costs;
}

/** The table's text: slowest first, then by path, one decimal. */
export function formatTestCosts(costs: Map<string, number>): string {
  return [...costs].sort(([a, x], [b, y]) => y - x || a.localeCompare(b)).map(([path, seconds]) => `${seconds.toFixed(1)} ${path}\n`).join("");
}

function allTestFiles(): string[] {
  return [...new Bun.Glob("tests/**/*.test.ts").scanSync({ cwd: root })].filter((path) => !path.includes("/.cache/")).sort();
}

async function wallSeconds(path: string): Promise<number> {
  const started = performance.now();
  const child = await spawnChild({ argv: [process.execPath, "test", "--timeout=20000", `./${path}`], cwd: root, stdin: "ignore" });
  const drain = async (stream: AsyncIterable<Uint8Array>) => {
    for await (const _ of stream);
  };
  const [exit] = await Promise.all([child.exited, drain(child.stdout), drain(child.stderr)]);
  if (exit.code !== 0) console.warn(`${path} failed (exit ${exit.code ?? exit.signal}): its time is recorded all the same`);
  return (performance.now() - started) / 1000;
}

async function main(): Promise<void> {
  const asked = process.argv.slice(2).map((path) => relative(root, join(process.cwd(), path)));
  const files = asked.length ? asked : allTestFiles();
  const costs = readTestCosts();
  for (const path of files) {
    const seconds = await wallSeconds(path);
    costs.set(path, seconds);
    console.log(`${seconds.toFixed(1)} s ${path}`);
  }
  for (const path of costs.keys()) if (!existsSync(join(root, path))) costs.delete(path);
  writeFileSync(TEST_COSTS_FILE, formatTestCosts(costs));
  console.log(`wrote ${relative(root, TEST_COSTS_FILE)} (${costs.size} files)`);
}

if (import.meta.main) await main();
