/**
 * Yields to the event loop until its next immediate (setImmediate): callbacks already queued (a request's handler, a
 * stream's pull, a timer that is due) run before the caller goes on. For loops that would otherwise hold the loop for
 * as long as their input lasts: the engine loading in steps, a stream writing a long replay, a run reading a CLI's
 * burst.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Lets callers that arrive together go on one per turn of the event loop. Requests that reach the server in one read
 * are all handled in one turn when their work never waits for I/O: fifty `POST /api/runs` at once held the loop for
 * their whole sum (2–3 s on a loaded machine), and no health check, stream write or event commit ran in between.
 * Taken at the start of such work, each caller's synchronous part runs in a turn of its own, and whatever else is
 * ready runs between two of them.
 */
export class TurnQueue {
  readonly #waiting: Array<() => void> = [];
  #scheduled = false;

  /** Resolves in a turn of its own, after every caller that asked before it. */
  next(): Promise<void> {
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
      this.#waiting.shift()?.();
      if (this.#waiting.length) this.#schedule();
    });
  }
}
