/**
 * Text that passes through od in bulk: the pages a late reader of a long run replays from sqlite, and single large
 * events (a plain CLI's stdout chunk, a huge tool result) while they are logged. Each is dead once written out, but
 * it lives across an await or two, so young-generation collections promote it and it stays until a full collection,
 * which JavaScriptCore runs late: a daemon replaying a 200 MB plain answer to a late reader peaked at ~300 MB.
 * The pacer counts that text and runs a full collection (with its sweep) once `everyChars` have gone by, at most
 * every `minIntervalMs`. Ordinary streaming (many small events) is not counted: there the collector's own pace costs
 * less than forced collections, which took ~8 ms each with ten runs streaming.
 */
import { collectAndSweep } from "../platform/memory.ts";

export type GarbagePacer = {
  /** Counts `chars` characters of bulk text; may collect. */
  count(chars: number): void;
  /** Characters counted since the last collection. */
  readonly pendingChars: number;
  /** Characters counted over the pacer's life: a collection does not reset it. */
  readonly totalChars: number;
};

export type GarbagePacerOptions = { everyChars: number; minIntervalMs: number; collect: () => void; now?: () => number };

export function createGarbagePacer(options: GarbagePacerOptions): GarbagePacer {
  const now = options.now ?? (() => performance.now());
  let pendingChars = 0;
  let totalChars = 0;
  let lastCollectionAt = now();
  return {
    count(chars) {
      pendingChars += chars;
      totalChars += chars;
      if (pendingChars < options.everyChars || now() - lastCollectionAt < options.minIntervalMs) return;
      pendingChars = 0;
      options.collect();
      lastCollectionAt = now();
    },
    get pendingChars() {
      return pendingChars;
    },
    get totalChars() {
      return totalChars;
    },
  };
}

/** A running count of characters: how much text has gone by since `reset` (a collection that took its garbage). */
export type TextMeter = {
  count(chars: number): void;
  readonly chars: number;
  reset(): void;
};

export function createTextMeter(): TextMeter {
  let chars = 0;
  return {
    count: (more) => void (chars += more),
    get chars() {
      return chars;
    },
    reset: () => void (chars = 0),
  };
}

/**
 * The JSON text of the events every run of this process has logged since the run service last collected before
 * storing an answer (`LOGGED_CHARS_BEFORE_ANSWER_GC` in run-execution.ts).
 */
export const loggedEventText = createTextMeter();

/**
 * The process's pacer for bulk run text. Measured on the daemon (bench/memory.ts's 200 MB plain answer read late):
 * peak ~300 → ~240 MB, the replay ~4 % slower.
 */
export const bulkTextPacer = createGarbagePacer({ everyChars: 16 * 1024 * 1024, minIntervalMs: 100, collect: collectAndSweep });
