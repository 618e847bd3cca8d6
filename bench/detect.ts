/**
 * Detection benchmark: every shipped def resolved to a fake CLI whose probes sleep for set times. Prints the
 * wall time of a full detection pass, the slowest single probe of that same pass and the slowest def detected alone,
 * and their ratios. Parallel detection should cost about the slowest def, not the sum (target: pass / slowest
 * probe ≤ 1.2). After a warm-up pass, PASSES passes are timed (the machine is shared and noisy): each pass's ratio
 * is against its own slowest probe, and the median and best are printed with the load average.
 *
 *   node_modules/.bin/bun run bench/detect.ts [--passes 5]
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
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

const passesArg = process.argv.indexOf("--passes");
const PASSES = passesArg > 0 ? Number(process.argv[passesArg + 1]) : 5;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const load = () => loadavg().map((l) => l.toFixed(2)).join(" ");

try {
  // Warm-up pass so first-spawn costs do not land on a measured one.
  await detectAgents(BASE_AGENT_DEFS, deps);
  const loadBefore = load();

  const slowestDef = BASE_AGENT_DEFS.find((def) => def.id === SLOWEST_ID);
  if (!slowestDef) throw new Error(`no ${SLOWEST_ID} def`);
  const passes: { passMs: number; slowestProbeMs: number; aloneMs: number; sumMs: number; available: number }[] = [];
  for (let pass = 0; pass < PASSES; pass++) {
    const started = performance.now();
    const results = await detectAgents(BASE_AGENT_DEFS, deps);
    const passMs = performance.now() - started;
    const probes = results.flatMap((result) => Object.values(result.info.probeMs).filter((ms): ms is number => typeof ms === "number"));
    const aloneStarted = performance.now();
    await detectAgent(slowestDef, deps);
    const aloneMs = performance.now() - aloneStarted;
    const sumMs = probes.reduce((sum, ms) => sum + ms, 0);
    passes.push({ passMs, slowestProbeMs: Math.max(...probes), aloneMs, sumMs, available: results.filter((result) => result.info.available).length });
  }

  for (const [index, p] of passes.entries()) {
    console.log(
      `pass ${index + 1}: ${p.passMs.toFixed(0)} ms, slowest probe ${p.slowestProbeMs.toFixed(0)} ms, ${SLOWEST_ID} alone ${p.aloneMs.toFixed(0)} ms, ` +
        `sum of probes ${p.sumMs.toFixed(0)} ms  ratio ${(p.passMs / p.slowestProbeMs).toFixed(2)}`,
    );
  }
  const ratios = passes.map((p) => p.passMs / p.slowestProbeMs);
  const aloneRatios = passes.map((p) => p.passMs / p.aloneMs);
  console.log(`defs detected:               ${BASE_AGENT_DEFS.length} (${passes[0]?.available} available)`);
  console.log(`detect-all wall time:        median ${median(passes.map((p) => p.passMs)).toFixed(0)} ms`);
  console.log(`ratio pass / slowest probe:  median ${median(ratios).toFixed(2)}, best ${Math.min(...ratios).toFixed(2)} over ${PASSES} passes (target <= 1.2)`);
  console.log(`ratio pass / slowest def:    median ${median(aloneRatios).toFixed(2)} (${slowestDef.id} alone: version probe, then its other probes)`);
  console.log(`load average before ${loadBefore}, after ${load()} (2 cores)`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
