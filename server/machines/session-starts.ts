/**
 * How long a session on each machine or container took to start lately: from the client's spawn to the first byte
 * its script printed (or to its exit, for a script that prints nothing). A clean-up sweep asks this how long to wait
 * for a location to answer before it counts as not answering: a host whose sessions start in 100 ms is given about a second,
 * not the seconds a loaded machine can need, so a cancel against a host that is gone answers at once, while a slow
 * but live host still gets the time its sessions take.
 */
import { locationKey, type RemoteLocation } from "./machine-url.ts";

/** The shortest wait for an answer: a session start is never judged on less. */
export const MIN_REACH_WAIT_MS = 1000;
/** The longest: a location with no recent starts, or slow ones, is given this (a loaded machine took ~3 s). */
export const MAX_REACH_WAIT_MS = 5000;
/**
 * The wait is this many times the typical (median) recent start: the median, not the slowest, because a location's
 * first command also logs in (seconds, once per shared connection), which says nothing of how soon a session starts.
 */
const TYPICAL_START_FACTOR = 4;
/** Starts kept per location. */
const KEPT = 8;

const recent = new Map<string, number[]>();

/** A session on `location` started (printed, or exited) `ms` after its client was spawned. */
export function noteSessionStart(location: RemoteLocation, ms: number): void {
  const key = locationKey(location);
  const starts = recent.get(key) ?? [];
  starts.push(ms);
  if (starts.length > KEPT) starts.shift();
  recent.set(key, starts);
}

/** How long to wait for `location`'s next session to start before counting it as not answering. */
export function reachWaitMs(location: RemoteLocation): number {
  const starts = recent.get(locationKey(location));
  if (!starts?.length) return MAX_REACH_WAIT_MS;
  const sorted = [...starts].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return Math.min(MAX_REACH_WAIT_MS, Math.max(MIN_REACH_WAIT_MS, Math.ceil(TYPICAL_START_FACTOR * median)));
}

/** Forgets every recorded start (tests). */
export function forgetSessionStarts(): void {
  recent.clear();
}
