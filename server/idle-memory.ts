/**
 * The daemon hands back memory it holds only for work that is over: once start-up is over (unless a run started
 * meanwhile), and again whenever it has had no request and no live run for `quietMs`. Each release drops the engine's compiled code (bytecode and machine
 * code, loaded again from the binary's bytecode as functions next run) and the heap a full collection frees
 * (platform/memory.ts `shrinkFootprint`). A daemon mostly waits for its person: what a burst of work grew (a long
 * run's JIT code, its garbage) need not stay resident until the next one.
 *
 * Measured on the built binary, interleaved with the build before: idle RSS 1.5 s after the engine is ready ~0.7 MB
 * lower (+0.53 MB over bench/startup.ts's stack floor instead of +1.27); after a 100k-event run through the API,
 * 75 → 68 MB once quiet. The price: ~12 ms for the release itself, paid when nothing else happens, and the first
 * action after it pays for loading its code again (a GET ~0.6 ms, the first run's POST ~2.7 ms, its end ~1.4 ms).
 */

/** How long the daemon must have been quiet (no request, no live run) before it releases again. */
export const QUIET_MS = 30_000;

/** Runs this process has started since it began, and how many of them are running now. */
export type RunCounts = { started: number; live: number };

export type IdleMemoryOptions = {
  runs: () => RunCounts;
  release: () => void;
  quietMs?: number;
  now?: () => number;
  /** Runs `fn` after `ms` without keeping the process alive; returns how to cancel it. */
  schedule?: (fn: () => void, ms: number) => () => void;
};

export class IdleMemory {
  readonly #options: IdleMemoryOptions;
  readonly #quietMs: number;
  readonly #now: () => number;
  readonly #schedule: (fn: () => void, ms: number) => () => void;
  #lastActivity: number;
  #cancel: (() => void) | undefined;
  #disposed = false;

  constructor(options: IdleMemoryOptions) {
    this.#options = options;
    this.#quietMs = options.quietMs ?? QUIET_MS;
    this.#now = options.now ?? (() => performance.now());
    this.#schedule = options.schedule ?? unrefTimeout;
    this.#lastActivity = this.#now();
  }

  /** A request arrived: the quiet starts again from now (a release waits for it to last `quietMs`). */
  activity(): void {
    this.#lastActivity = this.#now();
    if (!this.#cancel && !this.#disposed) this.#arm(this.#quietMs);
  }

  /**
   * Start-up is over: what it compiled and left behind is released at once, unless a run has started meanwhile. A
   * run's code is what the next run uses: dropped while it streamed or right after, it was compiled again during the
   * next runs, and ten runs at once peaked ~4 MB higher over the idle daemon. Then the release waits for quiet.
   */
  startupOver(): void {
    if (this.#disposed) return;
    if (this.#options.runs().started > 0) return this.activity();
    this.#cancel?.();
    this.#cancel = undefined;
    this.#options.release();
  }

  /** No release from now on (the daemon is stopping). */
  dispose(): void {
    this.#disposed = true;
    this.#cancel?.();
    this.#cancel = undefined;
  }

  #arm(ms: number): void {
    this.#cancel = this.#schedule(() => this.#check(), ms);
  }

  #check(): void {
    this.#cancel = undefined;
    if (this.#disposed) return;
    // Live runs are activity until they end; the quiet counts from the last check that found one.
    if (this.#options.runs().live > 0) this.#lastActivity = this.#now();
    const quietFor = this.#now() - this.#lastActivity;
    if (quietFor < this.#quietMs) return this.#arm(this.#quietMs - quietFor);
    this.#options.release();
  }
}

function unrefTimeout(fn: () => void, ms: number): () => void {
  const timer = setTimeout(fn, ms);
  (timer as { unref?: () => void }).unref?.();
  return () => clearTimeout(timer);
}
