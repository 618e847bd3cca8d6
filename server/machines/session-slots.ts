/**
 * ssh runs every command to one host over one shared connection (ControlMaster), and a stock sshd allows 10
 * sessions on a connection (MaxSessions). Past that, each further command opens a connection of its own, and a stock
 * sshd drops new connections at random once 10 are logging in at once (MaxStartups 10:30:100): a detection pass that
 * probed every CLI at once lost some of them as if they were broken. So od's short commands to one host (probes,
 * checks, listings, reads, sweeps) take turns, at most `SHORT_SESSIONS_PER_HOST` at once, which leaves room on the
 * connection for the runs there. A container has no such limit: docker exec commands are not queued.
 */
import type { RemoteLocation } from "./machine-url.ts";

export const SHORT_SESSIONS_PER_HOST = 6;

/** The turns on one host: how many commands hold one now, and who waits for one (first come, first served). */
type Turns = { active: number; waiting: (() => void)[] };

const byHost = new Map<string, Turns>();

/** One connection per user, host and port: what ssh's control socket (`%C`) is named by. */
function hostKey(location: RemoteLocation): string | undefined {
  return location.kind === "ssh" ? `${location.user ?? ""}@${location.host}:${location.port ?? ""}` : undefined;
}

/** Runs `command` when the host has a session free for it; the session is given back however it ends. */
export async function inSessionTurn<T>(location: RemoteLocation, command: () => Promise<T>): Promise<T> {
  const key = hostKey(location);
  if (key === undefined) return command();
  let turns = byHost.get(key);
  if (!turns) byHost.set(key, (turns = { active: 0, waiting: [] }));
  if (turns.active >= SHORT_SESSIONS_PER_HOST) await new Promise<void>((resolve) => turns.waiting.push(resolve));
  else turns.active++;
  try {
    return await command();
  } finally {
    const next = turns.waiting.shift();
    // The turn passes straight to the next command (active stays the same); with nobody waiting it is given back.
    if (next) next();
    else if (--turns.active === 0) byHost.delete(key);
  }
}

/** Commands holding a turn on `location`'s host now (tests). */
export function sessionsInUse(location: RemoteLocation): number {
  const key = hostKey(location);
  return key === undefined ? 0 : (byHost.get(key)?.active ?? 0);
}
