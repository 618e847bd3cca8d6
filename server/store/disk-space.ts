/**
 * What od does when the disk holding its data is full. A write that fails for want of space fails the run that made
 * it, not the daemon: the run ends `failed` with `DISK_FULL`, what was stored stays readable, and new runs are refused
 * with `DISK_FULL` until there is room again.
 *
 * The room to end a run properly (its `end` event, its record, its message) comes from a reserve: a file of
 * `RESERVE_BYTES` kept in the data dir and deleted at the first write that finds the disk full. It is put back, and
 * runs are accepted again, once writing it succeeds again.
 */
import { rmSync, statSync, writeFileSync } from "node:fs";

/** Enough for a run's last records (its end, its summary, a cut message) on the smallest disk worth running on. */
export const RESERVE_BYTES = 512 * 1024;

export const DISK_FULL_MESSAGE = "the disk holding od's data is full: free some space (or move the data dir with --data-dir), then start the run again";

/** A write failed because the disk (or the file system's quota) is full: sqlite's SQLITE_FULL or the system's ENOSPC/EDQUOT. */
export function isDiskFull(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code === "SQLITE_FULL" || code === "ENOSPC" || code === "EDQUOT") return true;
  return typeof message === "string" && /database or disk is full|no space left on device/i.test(message);
}

/**
 * A cache's write (a finished run's history, an answer's text): made only while the disk has room, since that room is
 * for runs' records first. A write that finds the disk full says so to `space`; any failure leaves the cache unwritten,
 * to be worked out again at the next read. Whether it was written.
 */
export function keepWhileRoom(space: Pick<DiskSpace, "available" | "exhausted">, write: () => void): boolean {
  if (!space.available()) return false;
  try {
    write();
    return true;
  } catch (error) {
    if (isDiskFull(error)) space.exhausted();
    return false;
  }
}

export class DiskSpace {
  #full = false;

  /** `reservePath` absent: no reserve (an in-memory store, or a test). */
  constructor(
    private readonly reservePath: string | undefined,
    private readonly reserveBytes = RESERVE_BYTES,
  ) {
    if (reservePath && statSync(reservePath, { throwIfNoEntry: false })?.size !== reserveBytes) this.#putReserveBack();
  }

  /** A write found the disk full: the reserve is given up, so the run that hit it can still record its end. */
  exhausted(): void {
    if (this.#full) return;
    this.#full = true;
    if (this.reservePath) rmSync(this.reservePath, { force: true });
  }

  /** Whether a write has found the disk full since the reserve was last put back (nothing is written to find out). */
  get full(): boolean {
    return this.#full;
  }

  /** Whether new work may write: after the disk was full, only once the reserve could be written again. */
  available(): boolean {
    if (this.#full && this.#putReserveBack()) this.#full = false;
    return !this.#full;
  }

  #putReserveBack(): boolean {
    if (!this.reservePath) return true;
    try {
      writeFileSync(this.reservePath, new Uint8Array(this.reserveBytes), { mode: 0o600 });
      return true;
    } catch {
      rmSync(this.reservePath, { force: true });
      return false;
    }
  }
}
