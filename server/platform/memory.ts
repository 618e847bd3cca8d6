/**
 * One full garbage collection now, where the runtime offers one (Deno without --expose-gc: nothing). Used where a
 * burst is over or about to start:
 * - when the daemon hands memory back (its start-up over, then whenever it is quiet: idle-memory.ts): JavaScriptCore
 *   keeps the heap it grew until a full collection happens to run, and Bun's collect also hands mimalloc's freed
 *   pages back. Measured: idle RSS 1.3–1.8 MB lower a second after start;
 * - before a long run's folded answer is written to sqlite: its large short-lived copies then reuse the memory the
 *   garbage held instead of growing the heap on top of it.
 */
export function collectGarbage(): void {
  (globalThis as { Bun?: { gc(force?: boolean): void } }).Bun?.gc(true);
}

/**
 * Drops the engine's compiled code and the heap a full collection frees, once the current task is over (Bun's
 * `shrink`: JavaScriptCore's shrinkFootprintWhenIdle); nothing where the runtime offers no such call. Code runs again
 * as before: its bytecode is loaded again from the binary (or compiled again from source) when next called. Bun's
 * types mark `shrink` deprecated with nothing to replace it; while a Bun still has it, it is used.
 */
export function shrinkFootprint(): void {
  const bun = (globalThis as { Bun?: { shrink?: () => void } }).Bun;
  if (typeof bun?.shrink === "function") bun.shrink();
}

/** bun:jsc, required at the first collection: the daemon's shell imports this module before it listens. */
let jsc: { gcAndSweep(): number } | undefined;

/**
 * A full collection that also sweeps at once, so the memory of what it found dead is reusable when it returns (Bun);
 * nothing where the runtime offers none. Cheaper than `collectGarbage` (no allocator-wide collect), and freed as
 * much in the measurements of server/runs/garbage-pacer.ts, which runs it while bulk text streams.
 */
export function collectAndSweep(): void {
  if (!(globalThis as { Bun?: unknown }).Bun) return;
  (jsc ??= import.meta.require("bun:jsc") as { gcAndSweep(): number }).gcAndSweep();
}
