/**
 * How a run ends when od cannot store what it does (a full disk): failed, with `DISK_FULL` and what to do about it.
 * Any other storage failure ends it as od's own fault, with sqlite's words.
 */
import { DISK_FULL_MESSAGE, isDiskFull } from "../store/disk-space.ts";
import type { RunEnding } from "./outcome.ts";

export function storeFailureEnding(error: unknown): RunEnding {
  if (isDiskFull(error)) {
    return { status: "failed", failureCategory: "config", failureDetail: "disk_full", errorCode: "DISK_FULL", reason: DISK_FULL_MESSAGE };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { status: "failed", failureCategory: "crash", failureDetail: "store_failed", errorCode: "STORE_FAILED", reason: `od could not store this run's events: ${message}` };
}
