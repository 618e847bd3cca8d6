/**
 * Detection benchmark: every shipped def resolved to a fake CLI whose probes sleep for set times. Prints the
 * wall time of one full detection pass, the slowest single probe and the slowest def detected alone (both measured
 * in the same run), and their ratios. Parallel detection should cost about the slowest def, not the sum
 * (target: pass / slowest probe ≤ 1.2).
 *
 *   node_modules/.bin/bun run bench/detect.ts
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BASE_AGENT_DEFS } from "../server/runtimes/registry.ts";
import { detectAgent, detectAgents, type DetectionDeps } from "../server/runtimes/detection.ts";

const root = mkdtempSync(join(tmpdir(), "od-bench-detect-"));
const bin = join(root, "bin");
mkdirSync(bin);

/** The def whose later probes sleep longest (it has help, model and auth probes). */
const SLOWEST_ID = "codex";

/** Sleep (seconds) of the version probe and of every later probe; one def is clearly slowest. */
function sleeps(id: string, index: number): { version: number; other: number } {
  if (id === SLOWEST_ID) return { version: 0.05, other: 1.0 };
  return { version: 0.05, other: 0.1 + ((index * 37) % 50) / 100 };
}

BASE_AGENT_DEFS.forEach((def, index) => {
  const { version, other } = sleeps(def.id, index);
  const script = `#!/bin/sh
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

const deps: DetectionDeps = {
  env: { PATH: `${bin}:/usr/bin:/bin`, HOME: root },
  homeDir: root,
  timeouts: { versionMs: 5000, helpMs: 5000, modelsMs: 5000, authMs: 5000 },
};

try {
  // Warm-up pass so first-spawn costs do not land on the measured one.
  await detectAgents(BASE_AGENT_DEFS, deps);

  const started = performance.now();
  const results = await detectAgents(BASE_AGENT_DEFS, deps);
  const passMs = performance.now() - started;

  const probes = results.flatMap((result) => Object.values(result.info.probeMs).filter((ms): ms is number => typeof ms === "number"));
  const slowestProbeMs = Math.max(...probes);
  const slowestDef = BASE_AGENT_DEFS.find((def) => def.id === SLOWEST_ID);
  if (!slowestDef) throw new Error(`no ${SLOWEST_ID} def`);
  const aloneStarted = performance.now();
  await detectAgent(slowestDef, deps);
  const aloneMs = performance.now() - aloneStarted;
  const sumMs = results.reduce((sum, result) => sum + Object.values(result.info.probeMs).reduce<number>((a, b) => a + (b ?? 0), 0), 0);

  const available = results.filter((result) => result.info.available).length;
  console.log(`defs detected:               ${results.length} (${available} available)`);
  console.log(`detect-all wall time:        ${passMs.toFixed(0)} ms`);
  console.log(`slowest single probe:        ${slowestProbeMs.toFixed(0)} ms`);
  console.log(`slowest def detected alone:  ${aloneMs.toFixed(0)} ms (${slowestDef.id}: version probe, then its other probes)`);
  console.log(`sum of all probes:           ${sumMs.toFixed(0)} ms`);
  console.log(`ratio pass / slowest probe:  ${(passMs / slowestProbeMs).toFixed(2)} (target <= 1.2)`);
  console.log(`ratio pass / slowest def:    ${(passMs / aloneMs).toFixed(2)}`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
