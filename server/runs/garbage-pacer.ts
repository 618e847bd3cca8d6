/**
 * Text that passes through od in bulk: the pages a late reader of a long run replays from sqlite, and the events a
 * run logs. Each is dead once written out, but it lives across an await or two, so young-generation collections
 * promote it and it stays until a full collection, which JavaScriptCore runs late: a daemon replaying a 200 MB plain
 * answer to a late reader peaked at ~300 MB.
 * A pacer counts that text and runs a full collection (with its sweep) once `everyChars` have gone by, at most every
 * `minIntervalMs`. A run alone counts into the bulk pacer (`bulkTextPacer`, every 16 MiB), whose collections an
 * ordinary answer never reaches; runs streaming together into `concurrentRunsPacer` (every MiB): their promoted
 * garbage adds up between the collector's own full collections, which came late enough that ten runs at 5k events/s
 * peaked anywhere from +24 to +37 MB over the idle daemon.
 */
import { collectAndSweep, collectGarbage } from "../platform/memory.ts";
import { perEvent } from "../platform/jit-tiers.ts";

export type GarbagePacer = {
  /** Counts `chars` characters of bulk text; may collect. */
  count(chars: number): void;
  /** Characters counted since the last collection. */
  readonly pendingChars: number;
  /** Characters counted over the pacer's life: a collection does not reset it. */
  readonly totalChars: number;
};

export type GarbagePacerOptions = {
  everyChars: number;
  minIntervalMs: number;
  /**
   * At most this share of the time goes to the pacer's collections: after one that took `d` ms, the next waits at
   * least `d / maxShare` ms (and `minIntervalMs`). Absent: only `minIntervalMs` spaces them.
   */
  maxShare?: number;
  /**
   * With `maxShare`: a collection longer than this stalls the event loop past what a request should wait, so after one
   * of `d` ms that wait grows `d / maxPauseMs` times more. A collection takes longer the more runs are live: fifty
   * runs get one or two while ten get one every ~200 ms.
   */
  maxPauseMs?: number;
  collect: () => void;
  now?: () => number;
};

export function createGarbagePacer(options: GarbagePacerOptions): GarbagePacer {
  const now = options.now ?? (() => performance.now());
  let pendingChars = 0;
  let totalChars = 0;
  let lastCollectionAt = now();
  let gapMs = options.minIntervalMs;
  const pacer: GarbagePacer = {
    count(chars) {
      pendingChars += chars;
      totalChars += chars;
      if (pendingChars < options.everyChars) return;
      const startedAt = now();
      if (startedAt - lastCollectionAt < gapMs) return;
      pendingChars = 0;
      options.collect();
      lastCollectionAt = now();
      if (options.maxShare) gapMs = gapAfter(lastCollectionAt - startedAt, options.maxShare, options);
    },
    get pendingChars() {
      return pendingChars;
    },
    get totalChars() {
      return totalChars;
    },
  };
  perEvent(pacer.count);
  return pacer;
}

/** How long after a collection of `tookMs` the next may start (see `maxShare` and `maxPauseMs`). */
function gapAfter(tookMs: number, maxShare: number, { minIntervalMs, maxPauseMs }: GarbagePacerOptions): number {
  const longer = maxPauseMs ? Math.max(1, tookMs / maxPauseMs) : 1;
  return Math.max(minIntervalMs, (tookMs / maxShare) * longer);
}

/** A running count of characters: how much text has gone by since `reset` (a collection that took its garbage). */
export type TextMeter = {
  count(chars: number): void;
  readonly chars: number;
  reset(): void;
};

export function createTextMeter(): TextMeter {
  let chars = 0;
  const meter: TextMeter = {
    count: (more) => void (chars += more),
    get chars() {
      return chars;
    },
    reset: () => void (chars = 0),
  };
  perEvent(meter.count);
  return meter;
}

/**
 * The JSON text of the events every run of this process has logged since the run service last collected before
 * storing an answer (`LOGGED_CHARS_BEFORE_ANSWER_GC` in run-execution.ts).
 */
export const loggedEventText = createTextMeter();

/** The pacers a run's event text is counted into: while it streams alone, and while others stream with it. */
export type RunTextPacers = { alone: GarbagePacer; together: GarbagePacer };

/**
 * Counts each event a run logs (its JSON's length): into the meter a run's end reads before storing its answer, and
 * into the pacer for as many runs as are live. The pacers' collections leave the meter be: runs streaming together
 * often end together, and the collection the first of them makes before its answer keeps the others' ends off the
 * garbage of the stream's last stretch (ten runs, one set of five rounds: peak +27 MB over idle when the pacer reset
 * the meter, +23 when not).
 * A run alone is counted too: a plain CLI printing a 200 MB answer logs it as ~30k events of 2–7 KB, which no
 * young-generation collection frees, and the daemon's peak climbed through the run to 226–258 MB (bench/memory.ts).
 */
export function loggedTextCounter(meter: TextMeter, pacers: RunTextPacers, liveRuns: () => number): (chars: number) => void {
  const count = (chars: number) => {
    meter.count(chars);
    (liveRuns() > 1 ? pacers.together : pacers.alone).count(chars);
  };
  perEvent(count);
  return count;
}

/**
 * The process's pacer for the event text of runs streaming together: a full collection (with its sweep) per MiB of it,
 * spaced by at least 100 ms and at most 5 % of the time, and further apart once one takes longer than 10 ms. Measured
 * with ten runs at 5k events/s each in the daemon (bench/latency.ts's rounds, a fresh daemon each): the peak over
 * idle's median +22 to +26 MB over four sets of five or six rounds, against +27 to +31 MB without it in the three of
 * them that ran it too, for up to 10 % more CPU while they stream (each collection took 7–13 ms there). Every 2 MiB, or
 * at most 2.5 % of the time, the peak was +22 to +31 MB. With fifty runs (bench/concurrency.ts) its collections took
 * 8–30 ms, two a round: `/api/health` p99 44 / 47 / 58 ms against 51 / 49 / 61 ms without it (three sets of five
 * rounds; at most 5 % of the time alone, three or four collections a round, it was 60 / 43 / 64 against 52 / 51 / 59).
 * A single run is not paced by it: `od run` peaked as high with such a collection every MiB (its own process collects
 * everything instead, `ownProcessRunPacer`), and the HTTP API run was up to 0.6 µs an event slower.
 */
export const concurrentRunsPacer = createGarbagePacer({ everyChars: 1024 * 1024, minIntervalMs: 100, maxShare: 0.05, maxPauseMs: 10, collect: collectAndSweep });

/**
 * The process's pacer for bulk run text: a lone run's events and the pages replayed from sqlite. Measured on the
 * daemon (bench/memory.ts: a plain agent's 50 and 200 MB answers, a late reader of all their events, then the
 * conversation's messages; three daemons of each, from source): counting only events of 64 KB or more and collecting
 * at most every 100 ms, the peak was 217–251 MB for 50 MB and 232–293 MB for 200 MB (the benchmark's +50 MB target
 * missed in two of the last three full runs); counting every event and at most every 20 ms, 207–212 and 211–220 MB.
 * Every 50 ms: 217–229 and 209–233 MB; within 10 % of the time: 216–244 and 216–250 MB. A collection took 3.6 ms
 * (median; 8.7 at most) and the 200 MB run with its late reader made 29. `od run`'s 100k lines log ~15 M characters:
 * no collection.
 */
export const bulkTextPacer = createGarbagePacer({ everyChars: 16 * 1024 * 1024, minIntervalMs: 20, collect: collectAndSweep });

/**
 * The pacer of runs that have their process to themselves (`od run`): a collection of everything, the allocator's
 * freed pages included (`collectGarbage`), once per 1.5 MiB of event text. A lone run's text is garbage once stored
 * and printed, but what the collector frees stays resident: JavaScriptCore's own collections, or the daemon's cheaper
 * `collectAndSweep` every MiB, left a 100k-line `od run` peaking as high as collecting nothing (86–90 MB). Collecting
 * everything (30 interleaved rounds of each, the peak's median and the run's time over collecting nothing): every MiB
 * −7.7 MB for +20 ms, every 1.5 MiB −5.8 MB for +12.5 ms, every 2 MiB −3.1 MB for +8 ms. Every 1.5 MiB gives the most
 * memory back for the time (~2.2 ms a MB against ~2.6), and keeps the run's cost per line, which the run's own
 * stream pays, well inside its budget on a slower host (every MiB took it to 2.46–2.53 µs there, against 2.5). The
 * growth's floor in bench/ collects every MiB (the recording relay's `--collect-every-mib 1`). A short answer never
 * reaches the first collection.
 */
export const ownProcessRunPacer = createGarbagePacer({ everyChars: 1.5 * 1024 * 1024, minIntervalMs: 0, collect: collectGarbage });
