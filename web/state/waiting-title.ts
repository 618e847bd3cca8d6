/**
 * While a run waits for the person's answer, the tab says so — in its title, and (when the person allowed
 * notifications and the tab is hidden) with one notification per newly waiting question — so an `ask` run does not
 * sit unseen in a background tab until its questions time out.
 */
import { effect, type ReadonlySignal } from "@preact/signals";

export type TitleTarget = { title: string; hidden: boolean };
export type Notify = (text: string) => void;

/** The tab's title for `waiting` open questions, from its plain `base` title. */
export function waitingTitle(base: string, waiting: number): string {
  if (waiting <= 0) return base;
  return `(${waiting}) ${waiting === 1 ? "Waiting for your answer" : "Waiting for your answers"} — ${base}`;
}

/** Keeps `target.title` in step with `waiting`; returns the function that stops it (and restores the title). */
export function followWaitingApprovals(waiting: ReadonlySignal<number>, target: TitleTarget, notify?: Notify): () => void {
  const base = target.title;
  let last = 0;
  const stop = effect(() => {
    const count = waiting.value;
    target.title = waitingTitle(base, count);
    if (count > last && target.hidden) notify?.("The agent asks before it acts: your answer is needed in od.");
    last = count;
  });
  return () => {
    stop();
    target.title = base;
  };
}

/** A browser notification, only where the person already granted them (asking needs a click: see the composer). */
export function browserNotify(text: string): void {
  if (typeof Notification === "undefined" || Notification.permission !== "granted") return;
  new Notification("od", { body: text, tag: "od-approval" });
}
