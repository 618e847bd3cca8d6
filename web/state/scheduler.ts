/**
 * When to flush batched updates. The page flushes once per animation frame; tests inject a manual scheduler
 * and call its queued callbacks themselves.
 */
export type FrameScheduler = (flush: () => void) => void;

export const animationFrameScheduler: FrameScheduler = (flush) => {
  if (typeof requestAnimationFrame === "function") requestAnimationFrame(() => flush());
  else setTimeout(flush, 16);
};

/** A scheduler that only queues; `runFrame()` runs what is queued (for tests and server-side use). */
export function manualScheduler(): { schedule: FrameScheduler; runFrame(): number; pending(): number } {
  let queue: Array<() => void> = [];
  return {
    schedule: (flush) => void queue.push(flush),
    runFrame() {
      const run = queue;
      queue = [];
      for (const flush of run) flush();
      return run.length;
    },
    pending: () => queue.length,
  };
}
