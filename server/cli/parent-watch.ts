/**
 * Noticing that the process that started od has exited. No portable event says so, but the parent pid changes when
 * it happens (the orphan is re-parented to init or a subreaper), so it is polled. `npm start` needs this: npm
 * forwards SIGINT/SIGTERM only to the shell running the script, which dies without passing them on.
 */
export function watchParentExit(onExit: () => void, options: { intervalMs?: number; parentPid?: () => number } = {}): () => void {
  const parentPid = options.parentPid ?? (() => process.ppid);
  const original = parentPid();
  const timer = setInterval(() => {
    if (parentPid() === original) return;
    clearInterval(timer);
    onExit();
  }, options.intervalMs ?? 250);
  // The watch alone never keeps od running.
  (timer as { unref?: () => void }).unref?.();
  return () => clearInterval(timer);
}
