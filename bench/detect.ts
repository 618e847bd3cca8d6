#!/usr/bin/env bun
/**
 * Detection: `od agents --json` (dist/od, a process) with every shipped agent def resolved to a fake CLI whose
 * probes sleep for set times (one def clearly slowest), against a plain parallel spawn of the very probes od ran
 * (recorded on a first, untimed pass; bench/fixtures/parallel-probes.ts), alternately, after one untimed run of each.
 * Parallel detection should cost about its slowest CLI plus process start. Target ≤ 1.2× the baseline.
 *   bun run bench/detect.ts            (OD_BENCH_REPS=N for N rounds, default 5)
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { baseAgentDefs } from "../server/runtimes/registry.ts";
import { figureOf, type Figure } from "./support/figures.ts";
import { benchEnv, odBinary, workDir } from "./support/od.ts";
import { benchReps, interleaved, measureProcess } from "./support/process.ts";
import { loadText, note, reportFigures } from "./support/report.ts";

const BASELINE_SCRIPT = join(import.meta.dir, "fixtures", "parallel-probes.ts");
/** The def whose later probes sleep longest. */
const SLOWEST_ID = "codex";

/** Sleep (seconds) of the version probe and of every later probe. */
function sleeps(id: string, index: number): { version: number; other: number } {
  if (id === SLOWEST_ID) return { version: 0.05, other: 1.0 };
  return { version: 0.05, other: 0.1 + ((index * 37) % 50) / 100 };
}

/** A sh fake per bin: answers after its sleep, and appends its argv to $PROBE_LOG when that is set. */
function writeProbeFakes(bin: string): void {
  mkdirSync(bin, { recursive: true });
  baseAgentDefs().forEach((def, index) => {
    const { version, other } = sleeps(def.id, index);
    const script = `#!/bin/sh
if [ -n "$PROBE_LOG" ]; then line=$(basename "$0"); for a in "$@"; do line="$line	$a"; done; printf '%s\\n' "$line" >> "$PROBE_LOG"; fi
case "$1" in
  --version) sleep ${version}; echo "${def.id} 1.0.0";;
  *) sleep ${other}; echo "--flag";;
esac
`;
    for (const name of [def.bin, ...(def.fallbackBins ?? [])]) {
      writeFileSync(join(bin, name), script);
      chmodSync(join(bin, name), 0o755);
    }
  });
}

export async function measureDetect(): Promise<Figure[]> {
  using dir = workDir("detect");
  const od = await odBinary();
  const bin = join(dir.path, "bin");
  writeProbeFakes(bin);
  const env = benchEnv(bin, dir.path);
  const dataDir = join(dir.path, "data");
  const log = join(dir.path, "probes.log");
  const odAgents = (extra: Record<string, string> = {}) => measureProcess([od, "agents", "--json"], { env: { ...env, OD_DATA_DIR: dataDir, ...extra } });
  await odAgents({ PROBE_LOG: log });
  const probes = readFileSync(log, "utf8").split("\n").filter(Boolean).length;
  note(`detect: ${baseAgentDefs().length} defs, od ran ${probes} probes; ${loadText()}`);
  const runs = await interleaved(benchReps(), {
    od: () => odAgents(),
    baseline: () => measureProcess([process.execPath, BASELINE_SCRIPT, log, bin], { env }),
  });
  return [
    figureOf({
      id: "detect.agents",
      title: `od agents --json, ${baseAgentDefs().length} fake CLIs, vs their probes spawned plainly`,
      unit: "ms",
      od: runs.od.map((r) => r.ms),
      baseline: runs.baseline.map((r) => r.ms),
      judged: runs.od.map((r, i) => r.ms / runs.baseline[i]!.ms),
      target: { op: "<=", value: 1.2, unit: "×", text: "≤ 1.2× the plain spawn" },
    }),
  ];
}

if (import.meta.main) reportFigures(await measureDetect());
