/**
 * Yields to the event loop until its next immediate (setImmediate): callbacks already queued (a request's handler, a
 * stream's pull, a timer that is due) run before the caller goes on. For loops that would otherwise hold the loop for
 * as long as their input lasts: the engine loading in steps, a stream writing a long replay. (Runs reading their CLIs
 * share the loop through a LoopShare instead.)
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A share of the event loop for work that arrives from many sources at once (fifty runs reading their CLIs): each
 * turn of the loop runs at most about `budgetMs` of it, then the loop polls for I/O (a health check, a request, a
 * stream's write) before the next share. A caller goes on at once while the current share lasts; otherwise it waits
 * in line, and each later turn lets the first in line go on, with whoever asks during that share.
 *
 * Why not a turn per source: in Bun, immediates queued in one turn all run in the next, so fifty runs that each
 * yielded a turn per chunk still had their chunks handled back to back (stalls of 100–400 ms, fifty runs streaming).
 * Why not one chunk per turn for all: every stream slowed, and their output piled up in the pipes.
 */
export class LoopShare {
  readonly #budgetMs: number;
  readonly #waiting: Array<() => void> = [];
  #shareStarted = Number.NEGATIVE_INFINITY;
  #scheduled = false;

  constructor(budgetMs: number) {
    this.#budgetMs = budgetMs;
  }

  /** Resolves at once while the current share lasts; else in a later turn of the loop, in line. */
  take(): Promise<void> | undefined {
    if (performance.now() - this.#shareStarted < this.#budgetMs) return undefined;
    return new Promise((resolve) => {
      this.#waiting.push(resolve);
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.#shareStarted = performance.now();
      this.#waiting.shift()?.();
      if (this.#waiting.length) this.#schedule();
    });
  }
}

/**
 * Lets callers that arrive together go on one per turn of the event loop (a LoopShare whose share is nothing).
 * Requests that reach the server in one read are all handled in one turn when their work never waits for I/O: fifty
 * `POST /api/runs` at once held the loop for their whole sum (2–3 s on a loaded machine), and no health check, stream
 * write or event commit ran in between. Taken at the start of such work, each caller's synchronous part runs in a
 * turn of its own, and whatever else is ready runs between two of them.
 */
export class TurnQueue {
  readonly #line = new LoopShare(0);

  /** Resolves in a turn of its own, after every caller that asked before it. */
  next(): Promise<void> {
    return this.#line.take() ?? Promise.resolve();
  }
}
