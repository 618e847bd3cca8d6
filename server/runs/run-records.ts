/**
 * A run's records in the store, written so a full disk costs the run and never the daemon: a new run's records are
 * refused with a 507 `DISK_FULL` (giving up the reserve, see DiskSpace); a run's last records are tried again smaller.
 */
import { OdError } from "../errors.ts";
import { DISK_FULL_MESSAGE, type DiskSpace, isDiskFull } from "../store/disk-space.ts";
import type { Store } from "../store/store.ts";
import type { RunEnding } from "./outcome.ts";
import type { UsageTally } from "./usage-tally.ts";

export class RunRecords {
  constructor(
    private readonly store: Store,
    private readonly space: DiskSpace,
  ) {}

  /** A run's outcome, exit, files and usage. */
  finish(runId: string, ending: RunEnding, exit: { code: number | null; signal: string | null }, files: string[], tally?: UsageTally, endedAt?: number): void {
    this.store.runs.finish(runId, {
      ...(endedAt !== undefined ? { endedAt } : {}),
      ...(tally ? { usage: tally.totals } : {}),
      status: ending.status,
      exitCode: exit.code,
      signal: exit.signal,
      failureCategory: ending.failureCategory ?? null,
      failureDetail: ending.failureDetail ?? null,
      reason: ending.reason,
      errorCode: ending.errorCode ?? null,
      files,
    });
  }

  /** A new run's records: a full disk refuses them with a 507 `DISK_FULL` (and gives up the reserve, see DiskSpace). */
  storingNew<T>(write: () => T): T {
    try {
      return write();
    } catch (error) {
      if (!isDiskFull(error)) throw error;
      this.space.exhausted();
      throw new OdError("storage_full", "DISK_FULL", DISK_FULL_MESSAGE);
    }
  }

  /**
   * One of a run's last records. A full disk's first refusal gives up the reserve (DiskSpace), and the write is tried
   * again (or `smaller` is); a second refusal is given up: a run's last records are worth trying, never worth the
   * daemon. Other errors go on as they are.
   */
  storingLast(write: () => void, smaller: () => void = write): void {
    try {
      write();
    } catch (error) {
      if (!isDiskFull(error)) throw error;
      this.space.exhausted();
      try {
        smaller();
      } catch (again) {
        if (!isDiskFull(again)) throw again;
        console.error(`od: ${DISK_FULL_MESSAGE}`);
      }
    }
  }
}
