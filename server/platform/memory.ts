/**
 * One full garbage collection now, where the runtime offers one (Deno without --expose-gc: nothing). Used where a
 * burst is over or about to start:
 * - the daemon's start-up (engine loaded, CLIs detected; `releaseStartupMemory`): JavaScriptCore keeps the heap it
 *   grew while loading until a full collection happens to run, and Bun's collect also hands mimalloc's freed pages
 *   back. Measured: idle RSS 1.3–1.8 MB lower a second after start;
 * - before a long run's folded answer is written to sqlite: its large short-lived copies then reuse the memory the
 *   garbage held instead of growing the heap on top of it;
 * - every 1.5 MiB of event text a run streams in a process of its own (`od run`; server/runs/garbage-pacer.ts).
 */
export function collectGarbage(): void {
  (globalThis as { Bun?: { gc(force?: boolean): void } }).Bun?.gc(true);
}

/**
 * What the daemon's start-up left behind, handed back once it is over (engine loaded, CLIs detected): its garbage
 * (`collectGarbage`) and, unless a run has started meanwhile, the code it compiled (Bun's `shrink`: JavaScriptCore's
 * shrinkFootprintWhenIdle drops compiled code; a function loads its bytecode from the binary again when next called).
 * Measured on the built binary, interleaved with a build that only collected: anonymous memory 1.1–1.3 MB lower 1.5 s
 * after the engine is ready and still 0.8 MB lower 90 s later (the engine does not age that code out by itself); the
 * first request after it ~0.6 ms slower, the first run's POST ~2.7 ms. Once a run has started, only the garbage goes:
 * a run's code is what the next run uses, and dropping it makes that run compile it again. Dropping code again
 * whenever the daemon had been quiet for 30 s was tried: after a 100k-event run the RSS came down to the same ~64 MB
 * within 20–36 s without it, and the next run paid for compiling again. Bun's types mark `shrink` deprecated, with
 * nothing to replace it: it is called only while a Bun has it.
 */
export function releaseStartupMemory(runsStarted: number): void {
  collectGarbage();
  const bun = (globalThis as { Bun?: { shrink?: () => void } }).Bun;
  if (runsStarted === 0 && typeof bun?.shrink === "function") bun.shrink();
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
