/**
 * Detection of every def at once: in parallel and fault-isolated, one def started per macrotask, each result as it
 * settles (a pass streams them) or all in registry order.
 */
import * as diag from "./diagnostics.ts";
import { baseAgentInfo, detectAgent, type DetectedAgent, type DetectionDeps } from "./detection.ts";
import { statFileWithDirCache } from "./executables.ts";
import type { RuntimeAgentDef } from "./types.ts";

/** `detectAgent` with a last-resort guard: an engine bug for one def becomes that def's diagnostic. */
export async function detectAgentIsolated(def: RuntimeAgentDef, deps: DetectionDeps): Promise<DetectedAgent> {
  try {
    return await detectAgent(def, deps);
  } catch (error) {
    const info = baseAgentInfo(def, deps.env);
    info.diagnostics.push(diag.notInvocableDiagnostic(def, def.bin, `Detection failed: ${(error as Error).message ?? String(error)}`));
    return { info, capabilities: {}, liveModels: null };
  }
}

/**
 * Deps shared by the defs of one pass: unless a test injected its own `statFile`, PATH directories are listed once
 * for the whole pass instead of every def statting its names in every directory. One def (`od run`'s agent) stats
 * its few names instead: listing a directory it passes on the way costs more than that (/usr/bin, ~1,150 names:
 * 0.8–1.8 ms here, against some 5 µs a stat).
 */
function passDeps(defs: readonly RuntimeAgentDef[], deps: DetectionDeps): DetectionDeps {
  return deps.statFile || defs.length < 2 ? deps : { ...deps, statFile: statFileWithDirCache(deps.platform ?? process.platform) };
}

/** Resolves on the next macrotask, so pending I/O (a probe's exit, its output) is handled first. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Starts every def's detection, one def per macrotask. Starting a def spawns its version probe synchronously (a few
 * ms each on a loaded machine); starting all defs in one task would hold every finished version probe's exit, and so
 * that def's next probes, behind the whole burst. Interleaved, a def moves on as soon as its version probe exits.
 */
async function startAll(defs: readonly RuntimeAgentDef[], deps: DetectionDeps, onStart: (run: Promise<DetectedAgent>) => void): Promise<void> {
  for (let index = 0; index < defs.length; index++) {
    if (index > 0) await nextTask();
    onStart(detectAgentIsolated(defs[index] as RuntimeAgentDef, deps));
  }
}

/** All defs in parallel; yields each result as it settles (settle order, not registry order). */
export async function* detectAgentsStream(defs: readonly RuntimeAgentDef[], deps: DetectionDeps): AsyncGenerator<DetectedAgent> {
  const settled: DetectedAgent[] = [];
  let wake: (() => void) | undefined;
  void startAll(defs, passDeps(defs, deps), (run) => {
    void run.then((result) => {
      settled.push(result);
      wake?.();
    });
  });
  for (let yielded = 0; yielded < defs.length; ) {
    if (yielded < settled.length) {
      yield settled[yielded++] as DetectedAgent;
      continue;
    }
    await new Promise<void>((resolve) => {
      wake = resolve;
    });
    wake = undefined;
  }
}

/** All defs in parallel; results in registry order. */
export async function detectAgents(defs: readonly RuntimeAgentDef[], deps: DetectionDeps): Promise<DetectedAgent[]> {
  const runs: Promise<DetectedAgent>[] = [];
  await startAll(defs, passDeps(defs, deps), (run) => runs.push(run));
  return Promise.all(runs);
}
