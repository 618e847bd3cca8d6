/**
 * The compiled binary starts with a reluctant JIT (`STARTUP_JIT_POLICY`, baked in by scripts/build-binary.ts): code
 * that runs once while od starts (module bodies, schema building, the engine's set-up) stays in the interpreter
 * instead of being compiled and kept. Once start-up is over, `endStartupJitPolicy` restores the normal policy, so hot
 * paths compile as usual: the daemon's once it has started, `od parse`'s at once, a run's once its stream proves
 * long (`jitAfterEvents`). Elsewhere (bun from source, Deno) there is no such policy and this does nothing.
 */
import { keepBelowTopTier, perEvent } from "./jit-tiers.ts";

/** JavaScriptCore's tier-up thresholds are this many times higher until start-up is over. */
export const STARTUP_JIT_POLICY = 100;

/** Start-up is over: the normal policy, and the per-event code kept below the top tier from here (jit-tiers.ts). */
export function endStartupJitPolicy(): void {
  const unsafe = (globalThis as { Bun?: { unsafe?: { setJITPolicy?(scale: number): void } } }).Bun?.unsafe;
  unsafe?.setJITPolicy?.(1);
  keepBelowTopTier();
}

/**
 * Events a run streams before the normal policy is restored for it. A short answer (tens or hundreds of events) ends
 * before that, so nothing of `od run` is compiled that only runs once: restoring the policy when the run was created
 * cost a 20-line `od run` ~5 ms of its ~35 ms (measured interleaved, with a CLI that costs nothing). A long stream
 * pays once: its first events are interpreted, ~7 ms in all, then its hot paths compile as before.
 */
export const EVENTS_BEFORE_JIT = 500;

/** A counter of streamed events that restores the normal policy at the `after`-th (once). */
export function jitAfterEvents(after = EVENTS_BEFORE_JIT): () => void {
  let streamed = 0;
  const count = () => {
    if (++streamed === after) endStartupJitPolicy();
  };
  perEvent(count);
  return count;
}
