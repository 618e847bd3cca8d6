/**
 * Peak resident memory of a child process, read from Linux's /proc/PID/status (VmHWM, the high-water mark) every
 * 20 ms until stopped. Call `sample()` once more just before the process exits (e.g. when its stdout ends): the mark
 * only grows, so the last reading is the peak.
 */
import { readFileSync } from "node:fs";

export function watchPeakRss(pid: number): { sample(): void; stop(): number } {
  let peakKb = 0;
  const sample = () => {
    try {
      const match = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      if (match) peakKb = Math.max(peakKb, Number(match[1]));
    } catch {
      // The process has just exited; the last sample stands.
    }
  };
  const timer = setInterval(sample, 20);
  return {
    sample,
    /** Stops sampling; returns the peak in kB. */
    stop() {
      clearInterval(timer);
      return peakKb;
    },
  };
}
