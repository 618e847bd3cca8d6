/**
 * The daemon's WAL checkpoint after runs end (its commits defer theirs, see Store.deferCheckpoints): a moment after it
 * is asked for, so a run's `end` frame reaches its readers first, and one for runs that end together.
 */
import type { DiskSpace } from "./disk-space.ts";
import type { Store } from "./store.ts";

/** How long after a run settles its checkpoint waits. */
export const CHECKPOINT_DELAY_MS = 50;

/**
 * None while the disk is full: a checkpoint grows od.db by the WAL's pages, and took the room the reserve had just
 * given back for a failing run's last records (its end, its record, its message), which then could not be written.
 * The WAL is checkpointed after a later run, once there is room again, or when the database closes.
 */
export function checkpointSoon(store: Pick<Store, "checkpoint">, space: Pick<DiskSpace, "full">, delayMs = CHECKPOINT_DELAY_MS): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return () => {
    timer ??= setTimeout(() => {
      timer = undefined;
      if (space.full) return;
      try {
        store.checkpoint();
      } catch {
        // The database closed meanwhile (the daemon stopping): its close checkpointed.
      }
    }, delayMs);
    (timer as { unref?: () => void }).unref?.();
  };
}
