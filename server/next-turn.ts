/**
 * Yields to the event loop until its next immediate (setImmediate): callbacks already queued (a request's handler, a
 * stream's pull, a timer that is due) run before the caller goes on. For loops that would otherwise hold the loop for
 * as long as their input lasts: the engine loading in steps, a stream writing a long replay, a run reading a CLI's
 * burst.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
