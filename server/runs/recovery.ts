/**
 * What a run that od lost (a kill -9, a crash, a power cut of the daemon) had done: its answer, tool calls and usage
 * so far, rebuilt from the events it stored, so its message says what the person saw instead of nothing. The fold is
 * the one a live run's end uses, fed the same events in the same order.
 */
import type { EventPersistence } from "./event-log.ts";
import { EventFolder } from "./fold.ts";
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

export function foldStoredRun(persistence: Pick<EventPersistence, "eventsAfter">, runId: string): StoredRunFold {
  const folder = new EventFolder();
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
