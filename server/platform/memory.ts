/**
 * One full garbage collection now, where the runtime offers one (Deno without --expose-gc: nothing). Used where a
 * burst is over or about to start:
 * - the daemon's start-up (engine loaded, CLIs detected): JavaScriptCore keeps the heap it grew while loading until a
 *   full collection happens to run, and Bun's collect also hands mimalloc's freed pages back. Measured: idle RSS
 *   1.3–1.8 MB lower a second after start;
 * - before a long run's folded answer is written to sqlite: its large short-lived copies then reuse the memory the
 *   garbage held instead of growing the heap on top of it.
 */
export function collectGarbage(): void {
  (globalThis as { Bun?: { gc(force?: boolean): void } }).Bun?.gc(true);
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
