/** The od under test (dist/od, as `npm run build` makes it), temp folders, and fake CLIs on a private PATH. */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compileLikeOd } from "../../scripts/build-binary.ts";
import { writeShim } from "../../tests/support/fake-agents.ts";

export const ROOT = join(import.meta.dir, "..", "..");
export const OD = join(ROOT, "dist", "od");
export const FAKE_CLI = join(ROOT, "tests", "fakes", "fake-cli.ts");

/**
 * dist/od built from the current source (`npm run build`), once: bench/run.ts builds it and sets
 * `OD_BENCH_SKIP_BUILD=1` for the benchmarks it starts; a benchmark run alone builds it itself.
 * `OD_BENCH_BINARY=FILE` measures that executable instead (e.g. a build made with other compile options).
 */
export async function odBinary(): Promise<string> {
  const chosen = process.env.OD_BENCH_BINARY;
  if (chosen) return chosen;
  if (process.env.OD_BENCH_SKIP_BUILD === "1" && existsSync(OD)) return OD;
  const build = Bun.spawn([process.execPath, "run", join(ROOT, "scripts", "build-binary.ts")], { cwd: ROOT, stdout: "ignore", stderr: "inherit" });
  if ((await build.exited) !== 0) throw new Error("building dist/od failed");
  process.env.OD_BENCH_SKIP_BUILD = "1";
  return OD;
}

/** Runs a first build of a floor once the way its benchmark does, with `env` (which names where its profile goes). */
export type FloorProfileRun = (binary: string, env: Record<string, string>) => Promise<void>;

/**
 * bench/fixtures/NAME.ts compiled into `dir` exactly as od is (compileLikeOd in scripts/build-binary.ts: the same
 * bundle, flags and reluctant start-up JIT, which each fixture resets where od does), its bytecode laid out by a
 * start-up profile as od's is: `profile` runs a first build the way the benchmark runs the floor, with
 * `BUN_BYTECODE_ORDER_OUT` set. A floor measured beside od.
 */
export async function compileFixture(name: string, dir: string, profile: FloorProfileRun): Promise<string> {
  const entrypoint = join(ROOT, "bench", "fixtures", `${name}.ts`);
  const outfile = join(dir, name);
  const unprofiled = await compileLikeOd(entrypoint, `${outfile}-unprofiled`);
  const order = join(dir, `${name}.order`);
  try {
    await profile(unprofiled, { BUN_BYTECODE_ORDER_OUT: order });
  } finally {
    rmSync(unprofiled, { force: true });
  }
  if (!existsSync(order)) throw new Error(`bench/fixtures/${name}.ts: its profile run wrote no bytecode order`);
  return await compileLikeOd(entrypoint, outfile, undefined, [order]);
}

/** A temp folder removed on dispose. */
export function workDir(prefix: string): { path: string; [Symbol.dispose](): void } {
  const path = mkdtempSync(join(tmpdir(), `od-bench-${prefix}-`));
  return { path, [Symbol.dispose]: () => rmSync(path, { recursive: true, force: true }) };
}

/** A bin folder under `dir` with one shim per name (running `script`, default the scriptable fake CLI). */
export function fakeBin(dir: string, shims: Record<string, string>): string {
  const bin = join(dir, "bin");
  mkdirSync(bin, { recursive: true });
  for (const [name, script] of Object.entries(shims)) writeShim(bin, name, script);
  return bin;
}

/** The environment od and the CLIs run in: only the fake bin and the system folders on PATH, a private HOME. */
export function benchEnv(bin: string, home: string, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: `${bin}:/usr/bin:/bin`, HOME: home, TMPDIR: tmpdir(), ...extra };
}
