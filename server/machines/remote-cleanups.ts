/**
 * A remote run's clean-up is not forgotten when its location does not answer. At the end of a run (done, cancel,
 * connection lost) the sweep of whatever still carries the run's cookie there first has to start there: a location
 * whose session does not start within a few times what its sessions took lately (session-starts.ts: about a second
 * for a host that answers in 100 ms, at most 5 s) counts as not answering at once. A sweep that started gets the
 * grace and a moment more. A location that has not answered (a suspended host, a cut network, a paused container)
 * does not hold the run, or a cancel, hostage: the run ends saying its clean-up is pending, and the clean-up is
 * recorded in the store and retried — as soon as any command reaches that location again, periodically while any is
 * pending, and on the next start of od — until a sweep reaches it. The record then says when it finished (the run's
 * summary, `cleanup`).
 *
 * One place owns these sweeps: at most one per run is in flight, and after `dispose` nothing more is started or
 * written (a sweep still in flight ends by its own timeout; an unfinished record waits for the next start).
 */
import { formatLocation, locationKey, remoteLocationOf, type RemoteLocation } from "./machine-url.ts";
import { onLocationAnswered } from "./location-contact.ts";
import type { RemoteContext } from "./remote-exec.ts";
import { SWEEP_SLACK_MS, sweepRemoteRun, type RunSweep, type SweepResult } from "./remote-launch.ts";
import { removeRunStaging } from "./remote-staging.ts";
import { reachWaitMs } from "./session-starts.ts";
import type { Machine, RunSweeper } from "./machine.ts";
import { killRunProcessTree } from "./process-tree.ts";
import { RemoteMachine } from "./remote-machine.ts";
import { remoteMachine } from "./machine-of.ts";
import { RUN_COOKIE_VAR } from "./run-cookie.ts";
import type { PendingSweep, PendingSweepsRepo } from "../store/pending-sweeps-repo.ts";

export type RemoteCleanupTimings = {
  /** How long a run's end waits for its sweep to start there (default: from the location's recent session starts). */
  reachWaitMs?: number;
  /** How long past the grace a run's end (and so a cancel) waits for a sweep that started (default: `SWEEP_WAIT_SLACK_MS`). */
  sweepWaitMs?: number;
  /** How long one sweep waits for the location before it gives up (default: the grace plus `SWEEP_SLACK_MS`). */
  attemptTimeoutMs?: number;
  /** How often unfinished clean-ups are retried while any remain (default: `DEFAULT_RETRY_EVERY_MS`). */
  retryEveryMs?: number;
};

/**
 * How long past the grace a run's end (and so a cancel) waits for a sweep that has started there: its TERM wait takes
 * the grace, its KILL rounds and its exit a moment more. A location whose sweep did not start is not waited for this
 * long (`reachWaitMs`). Past that the cancel answers and the sweep goes on, recorded as pending.
 */
export const SWEEP_WAIT_SLACK_MS = 5000;

/** Unfinished clean-ups are retried this often; any command reaching their location retries them sooner. */
export const DEFAULT_RETRY_EVERY_MS = 60_000;

/** A sweep under way: its result, and a promise settled once it runs there (the location answered). */
type InFlightSweep = { result: Promise<SweepResult>; started: Promise<void> };

export type RemoteCleanupDeps = {
  repo: PendingSweepsRepo;
  context: RemoteContext;
  /** The TERM grace a sweep gives the run's processes before it kills them. */
  graceMs: number;
  timings?: RemoteCleanupTimings;
  /** How a sweep is made there (default `sweepRemoteRun`; tests time it). */
  sweep?: typeof sweepRemoteRun;
};

export class RemoteCleanups {
  readonly #inFlight = new Map<string, InFlightSweep>();
  readonly #stopListening: () => void;
  readonly #attemptTimeoutMs: number;
  readonly #retryEveryMs: number;
  readonly #sweepWaitMs: number;
  #timer: ReturnType<typeof setInterval> | undefined;
  #disposed = false;

  constructor(private readonly deps: RemoteCleanupDeps) {
    this.#attemptTimeoutMs = deps.timings?.attemptTimeoutMs ?? deps.graceMs + SWEEP_SLACK_MS;
    this.#retryEveryMs = deps.timings?.retryEveryMs ?? DEFAULT_RETRY_EVERY_MS;
    this.#sweepWaitMs = deps.timings?.sweepWaitMs ?? SWEEP_WAIT_SLACK_MS;
    this.#stopListening = onLocationAnswered((location) => this.#retryWhere(locationKey(location)));
  }

  /**
   * The sweep at the end of a run's attempt: its result when the location answers within the grace and
   * `sweepWaitMs`; else the clean-up is recorded as pending and goes on without the run.
   */
  async sweepAfterRun(runId: string, location: RemoteLocation): Promise<RunSweep> {
    const since = Date.now();
    const { result: sweep, started } = this.#sweepInFlight(runId, location);
    // First: does the sweep start there at all? A location that is gone answers nothing, so waiting the grace for it
    // would only keep a cancel waiting.
    const reachMs = this.deps.timings?.reachWaitMs ?? reachWaitMs(location);
    const reached = await settledWithin(Promise.race([started.then(() => "started" as const), sweep]), reachMs);
    if (reached === undefined) {
      this.#recordPending(runId, location, since, sweep);
      return { kind: "pending", since, why: `no answer within ${seconds(reachMs)} s` };
    }
    const waitMs = this.deps.graceMs + this.#sweepWaitMs;
    const early = reached === "started" ? await settledWithin(sweep, waitMs) : reached;
    if (early?.kind === "swept") return early;
    this.#recordPending(runId, location, since, sweep);
    return { kind: "pending", since, why: early?.why ?? `no answer within ${seconds(reachMs + waitMs)} s` };
  }

  /** The sweep a run on `machine` gets at the end of its attempt: remembered and retried there when it cannot reach. */
  sweeperFor(machine: Machine): RunSweeper {
    return machine instanceof RemoteMachine ? (runId) => this.sweepAfterRun(runId, machine.location) : async () => ({ kind: "swept", pids: [] });
  }

  /**
   * What is left of a run whose od process died, on its machine: here, every process carrying its cookie (started
   * after `since`) and the tree of `rootPid`; elsewhere, the tree of the client here and the cookie's processes there
   * (recorded first, so a machine that does not answer now is swept when it does, by this od or the next).
   */
  sweepLost(lost: { runId: string; rootPid: number; since?: string | null }, machine: Machine, hurry?: AbortSignal): void {
    const here = machine instanceof RemoteMachine ? {} : { cookie: { name: RUN_COOKIE_VAR, value: lost.runId }, cookieSince: lost.since };
    void killRunProcessTree({ rootPid: lost.rootPid, ...here, graceMs: this.deps.graceMs, ...(hurry ? { hurry } : {}) });
    if (machine instanceof RemoteMachine) this.sweepLater(lost.runId, machine.location);
  }

  /** A run that ended without its sweep (its od process died): recorded as pending, and swept now. */
  sweepLater(runId: string, location: RemoteLocation): void {
    this.#recordPending(runId, location, Date.now(), this.#sweep(runId, location));
  }

  /** Retries every unfinished clean-up the store holds (od starting: some may be an earlier process's). */
  resume(): void {
    if (this.#retryWhere() > 0) this.#keepRetrying();
  }

  /**
   * Resolves once every sweep in flight has settled, or after `timeoutMs`: a process about to exit (`od run`) lets a
   * slow host's sweep finish instead of leaving it to the next od's start.
   */
  async settled(timeoutMs: number): Promise<void> {
    if (!this.#inFlight.size) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    await Promise.race([Promise.allSettled([...this.#inFlight.values()].map((sweep) => sweep.result)), deadline]);
    clearTimeout(timer);
  }

  /** Stops listening and retrying; records still unfinished wait for the next start. */
  dispose(): void {
    this.#disposed = true;
    this.#stopListening();
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #recordPending(runId: string, location: RemoteLocation, since: number, sweep: Promise<SweepResult>): void {
    if (this.#disposed) return;
    this.deps.repo.record(runId, formatLocation(location), since);
    // Chained after the record exists, so a sweep that has already settled still counts against it.
    void sweep.then((result) => this.#settle(runId, location, result));
    this.#keepRetrying();
  }

  /** The run's sweep in flight, or a new one. */
  #sweep(runId: string, location: RemoteLocation): Promise<SweepResult> {
    return this.#sweepInFlight(runId, location).result;
  }

  /** The run's sweep in flight (with when it started there), or a new one. */
  #sweepInFlight(runId: string, location: RemoteLocation): InFlightSweep {
    const inFlight = this.#inFlight.get(runId);
    if (inFlight) return inFlight;
    let markStarted!: () => void;
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    const sweepThere = this.deps.sweep ?? sweepRemoteRun;
    const result = sweepThere(location, runId, this.deps.graceMs, this.deps.context, this.#attemptTimeoutMs, markStarted).finally(() => this.#inFlight.delete(runId));
    const sweep = { result, started };
    this.#inFlight.set(runId, sweep);
    return sweep;
  }

  /** Writes what a sweep of a recorded clean-up came to; once it reached the location, removes the run's staging. */
  #settle(runId: string, location: RemoteLocation, result: SweepResult): void {
    if (this.#disposed) return;
    try {
      if (result.kind === "unreached") return this.deps.repo.failed(runId, result.why);
      this.deps.repo.finished(runId, Date.now());
    } catch {
      // The store closed under a process that never shut this down: the record waits for the next start.
      return;
    }
    // What the run's own end would have removed there had it reached the location (skills, MCP config, prompt file).
    void removeRunStaging(remoteMachine(location, this.deps.context), runId);
  }

  /** Retries the unfinished clean-ups on the machine or container `key` (all when absent); returns how many are unfinished. */
  #retryWhere(key?: string): number {
    if (this.#disposed) return 0;
    let pending: PendingSweep[];
    try {
      pending = this.deps.repo.pending();
    } catch {
      // The store closed under a process that never shut this down: there is nothing left to retry from here.
      return 0;
    }
    for (const { runId, location: path } of pending) {
      if (this.#inFlight.has(runId)) continue;
      const location = parsedLocation(path);
      if (!location || (key !== undefined && locationKey(location) !== key)) continue;
      void this.#sweep(runId, location).then((result) => this.#settle(runId, location, result));
    }
    return pending.length;
  }

  /** While any clean-up is unfinished, retries them all every `retryEveryMs`; the timer never keeps od alive. */
  #keepRetrying(): void {
    if (this.#timer || this.#disposed) return;
    this.#timer = setInterval(() => {
      if (this.#retryWhere() > 0) return;
      clearInterval(this.#timer);
      this.#timer = undefined;
    }, this.#retryEveryMs);
    (this.#timer as { unref?: () => void }).unref?.();
  }
}

/** The stored location of a clean-up, or undefined for text that is not one (it was written by formatLocation). */
function parsedLocation(path: string): RemoteLocation | undefined {
  try {
    return remoteLocationOf(path);
  } catch {
    return undefined;
  }
}

/** What `promise` resolved to if it did within `ms`, else undefined (it goes on). */
async function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

function seconds(ms: number): number {
  return Math.round(ms / 100) / 10;
}
