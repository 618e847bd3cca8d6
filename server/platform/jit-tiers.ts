/**
 * The code a streaming run calls once per event (its reader's and parser's, its fold's, its log's, its printer's) kept
 * below JavaScriptCore's top tier, the FTL. A function that stays hot in the tier below (DFG) is compiled again by the
 * FTL; od's per-event work (a line parsed, folded, logged and printed: short, allocating, string-heavy functions) ran
 * no faster for it, while its ~20 compiles of a long run took ~60 ms of a compiler thread's CPU, their memory, and the
 * FTL compiler's own code paged in from the binary (~2.3 MB of it). Two builds written together, 12 interleaved
 * rounds: a 100k-line `od run` grew +27.1 MB instead of +31.1 (peak RSS over a 20-line run) and took 250 ms instead of
 * 262; the daemon with ten runs streaming peaked +19.9–20.2 MB over idle instead of +21.6–21.7 (two sets of three
 * rounds), its HTTP API run's cost per event unchanged within its noise. Switching the FTL off for the whole process
 * (`BUN_JSC_useFTLJIT=0`) measures the same, but a compiled binary cannot set that from inside, and bun:jsc keeps one
 * function at a time out of it: so each module of the per-event path names its functions here, and
 * tests/runs/per-event-tiers.test.ts streams every stream format long and fails on any function the FTL compiled.
 * Raising the JIT policy's scale instead (server/platform/jit-policy.ts) left the FTL's compiles as they were (20–24
 * at scales 1 to 100).
 *
 * Loading bun:jsc takes ~0.3 ms, a short `od run`'s to pay for nothing. In the compiled binary, while its reluctant
 * start-up policy holds (under which nothing runs often enough to reach the FTL), the functions named are only kept,
 * and marked when the normal policy is restored (`keepBelowTopTier`, from jit-policy.ts: the daemon once it has
 * started, `od run` once its stream proves long, `od parse` at once); from then on, as they are named. From source,
 * where there is no such policy, they are marked as they are named. Elsewhere (Deno) this does nothing.
 */

/** A function or a class (its constructor). */
type Code = ((...args: never[]) => unknown) | (new (...args: never[]) => unknown);

type BunGlobal = { isStandaloneExecutable?: boolean };
const bun = (globalThis as { Bun?: BunGlobal }).Bun;

let noFtl: ((code: Code) => void) | undefined;
/** What was named while the compiled binary's start-up policy holds; undefined once marked (or where nothing is). */
let waiting: Code[] | undefined = bun?.isStandaloneExecutable ? [] : undefined;
if (bun && !waiting) keepBelowTopTier();

/** Keeps `functions` (each called once per event of a run, or more often) out of the FTL, where the runtime can. */
export function perEvent(...functions: Code[]): void {
  if (noFtl) for (const fn of functions) noFtl(fn);
  else waiting?.push(...functions);
}

/** The JIT's normal policy is back: what was named waits no longer, and what is named next is marked at once. */
export function keepBelowTopTier(): void {
  if (noFtl || !bun) return;
  // A Bun without it (bun:jsc's helpers are its own to change) keeps running as it is, every tier in use.
  noFtl = (import.meta.require("bun:jsc") as { noFTL?: (code: Code) => void }).noFTL ?? (() => undefined);
  for (const fn of waiting ?? []) noFtl(fn);
  waiting = undefined;
}
