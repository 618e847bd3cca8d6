/**
 * The compiled binary starts with a reluctant JIT (`STARTUP_JIT_POLICY`, baked in by scripts/build-binary.ts): code
 * that runs once while od starts (module bodies, schema building, the engine's set-up) stays in the interpreter
 * instead of being compiled and kept. Once start-up is over, `endStartupJitPolicy` restores the normal policy, so a
 * long run's hot paths (reading, parsing, writing events) compile as usual. Elsewhere (bun from source, Deno) there is
 * no such policy and this does nothing.
 */

/** JavaScriptCore's tier-up thresholds are this many times higher until start-up is over. */
export const STARTUP_JIT_POLICY = 100;

export function endStartupJitPolicy(): void {
  const unsafe = (globalThis as { Bun?: { unsafe?: { setJITPolicy?(scale: number): void } } }).Bun?.unsafe;
  unsafe?.setJITPolicy?.(1);
}
