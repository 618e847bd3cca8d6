/**
 * What a run that od lost (a kill -9, a crash, a power cut of the daemon) or that a bug of ours stopped had done: its
 * answer, tool calls and usage so far, rebuilt from the events it stored, so its message says what the person saw
 * instead of nothing. The fold is the one a live run's end uses, fed the same events in the same order.
 */
import type { RunSummary } from "../contracts/runs.ts";
import type { Store } from "../store/store.ts";
import { endEvent } from "./end-event.ts";
import { RunEventLog, type EventPersistence } from "./event-log.ts";
import { isDiskFull } from "../store/disk-space.ts";
import type { LiveRun, LoggedEnding } from "./live-run.ts";
import type { RunEnding } from "./outcome.ts";
import type { RunRecords } from "./run-records.ts";
import { EventFolder } from "./fold.ts";
import { MessageTextPieces, type TextPieces } from "./text-pieces.ts";
import { storeFailureEnding } from "./store-failures.ts";
import { UsageTally } from "./usage-tally.ts";
import { parseLoggedEvent } from "../store/event-json.ts";

export type StoredRunFold = {
  folder: EventFolder;
  tally: UsageTally;
  /** The time of the run's last stored event: when it was last seen alive. Undefined when it stored none. */
  lastEventAt: number | undefined;
};

/** Events read a page at a time: a crashed run of 100k events is never held whole. */
const PAGE = 1000;

/** The run's fold from its stored events; with `pieces`, its long parts go there as the live run's did. */
export function foldStoredRun(persistence: Pick<EventPersistence, "eventsAfter">, runId: string, pieces?: TextPieces): StoredRunFold {
  const folder = new EventFolder(pieces ? { pieces } : {});
  const tally = new UsageTally();
  let lastEventAt: number | undefined;
  for (let cursor = 0; ; ) {
    const page = persistence.eventsAfter(runId, cursor, PAGE);
    if (!page.length) break;
    for (const logged of page) {
      const event = parseLoggedEvent(logged);
      lastEventAt = event.ts;
      if (event.type !== "agent") continue;
      folder.push(event.event);
      tally.push(event.event);
    }
    cursor = page[page.length - 1]!.id;
  }
  return { folder, tally, lastEventAt };
}

/**
 * Ends a run whose od died: its answer, tool calls and usage are rebuilt from the events it stored, and it ends when
 * it was last seen (its last stored event), not when a later od noticed, so its duration is what it ran.
 */
export function endLostRun(store: Store, records: RunRecords, run: RunSummary): void {
  const messageId = store.messages.ofRun(run.id);
  const stored = foldStoredRun(store.runs, run.id, messageId === undefined ? undefined : MessageTextPieces.afresh(store.messages, messageId));
  const startedAt = run.startedAt ?? run.createdAt;
  const endedAt = Math.max(startedAt, stored.lastEventAt ?? startedAt);
  const ending: RunEnding = { status: "failed", failureCategory: "crash", failureDetail: "daemon_restart", reason: "od stopped while this run was in progress" };
  const exit = { code: null, signal: null };
  new RunEventLog(run.id, store.runs).append(endEvent(ending, exit, run.files, startedAt, endedAt), endedAt);
  records.finish(run.id, ending, exit, run.files, stored.tally, endedAt);
  if (messageId) store.messages.complete(messageId, { events: stored.folder.events, endedAt, files: run.files });
}

/**
 * Ends a live run that a bug of ours stopped (an exception out of its execution), wherever it stopped: its `end` when
 * not logged yet (failed, `internal_error`, or the store failure that stopped it), then its record and its message
 * when its own end did not write them, from the events it stored and with what its `end` said. Never throws: what
 * cannot be written is said on stderr (a record left unended is ended by a later od from its events, as a lost run's).
 */
export function endCrashedRun(store: Store, records: RunRecords, live: LiveRun, error: unknown): void {
  const cause = error instanceof Error ? error.message : String(error);
  try {
    const run = store.runs.get(live.id);
    if (!live.log.ended) live.ended = logCrashEnd(live, cause, run?.startedAt ?? run?.createdAt ?? Date.now());
    live.log.flush();
    const messageId = store.messages.ofRun(live.id);
    const unended = run?.endedAt === null;
    const open = messageId !== undefined && store.messages.isOpen(messageId);
    if (!unended && !open) return;
    const stored = foldStoredRun(store.runs, live.id, open ? MessageTextPieces.afresh(store.messages, messageId) : undefined);
    const { ending, exit, files } = live.ended ?? crashEnding(live, cause);
    if (unended) records.storingLast(() => records.finish(live.id, ending, exit, files, stored.tally));
    if (open) records.storingLast(() => store.messages.complete(messageId, { events: stored.folder.events, endedAt: Date.now(), files }));
  } catch (again) {
    const why = isDiskFull(again) ? "the disk is full" : again instanceof Error ? again.message : String(again);
    console.error(`od: run ${live.id} stopped on an error of od's (${cause}), and its end could not be stored: ${why}`);
  }
}

/** The ending of a run a bug of ours stopped: `internal_error`, or the store failure that stopped it. */
function crashEnding(live: LiveRun, cause: string): LoggedEnding {
  const ending: RunEnding =
    live.storeFailure === undefined ? { status: "failed", failureCategory: "crash", failureDetail: "internal_error", reason: cause } : storeFailureEnding(live.storeFailure);
  return { ending, exit: { code: null, signal: null }, files: [] };
}

/** Logs the `error` and `end` of a run a bug of ours stopped before its own end (its duration from `startedAt`). */
function logCrashEnd(live: LiveRun, cause: string, startedAt: number): LoggedEnding {
  const ended = crashEnding(live, cause);
  const { ending } = ended;
  const code = ending.errorCode ?? "INTERNAL";
  live.log.append({ type: "error", message: code === "INTERNAL" ? `od failed while running the agent: ${cause}` : ending.reason, error: { code, message: ending.reason } });
  live.log.append(endEvent(ending, ended.exit, ended.files, startedAt));
  return ended;
}
