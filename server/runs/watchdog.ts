/**
 * Two timers that keep a run from spinning forever: no substantive output within `firstOutputMs` of the start,
 * or no bytes at all for `inactivityMs`. Either one fires once and asks the attempt to stop the agent.
 */
import { perEvent } from "../platform/jit-tiers.ts";

export type WatchdogTimeouts = { firstOutputMs: number; inactivityMs: number };

export class Watchdog {
  static {
    // Told of every chunk and of every substantive event a run streams (server/platform/jit-tiers.ts).
    perEvent(this.prototype.activity, this.prototype.sawOutput);
  }

  #first: ReturnType<typeof setTimeout> | undefined;
  #idle: ReturnType<typeof setTimeout> | undefined;
  #fired = false;
  /** Questions waiting for a person: silence then is the person's, not the agent's, so the idle watch pauses. */
  #held = 0;

  constructor(
    private readonly timeouts: WatchdogTimeouts,
    private readonly onTimeout: (which: "first_output" | "inactivity") => void,
  ) {
    if (timeouts.firstOutputMs > 0) this.#first = setTimeout(() => this.#fire("first_output"), timeouts.firstOutputMs);
    this.activity();
  }

  /** Any byte from the agent. */
  activity(): void {
    if (this.#fired || this.timeouts.inactivityMs <= 0) return;
    clearTimeout(this.#idle);
    if (this.#held > 0) return;
    this.#idle = setTimeout(() => this.#fire("inactivity"), this.timeouts.inactivityMs);
  }

  /** The agent produced something a person would see: the first-output watch is satisfied. */
  sawOutput(): void {
    clearTimeout(this.#first);
    this.#first = undefined;
  }

  /** The agent waits for a person's answer: no watch fires until `release`. */
  hold(): void {
    this.#held++;
    clearTimeout(this.#first);
    clearTimeout(this.#idle);
  }

  /** An answer came back: the idle watch starts again from now (the first-output one is not re-armed). */
  release(): void {
    this.#held = Math.max(0, this.#held - 1);
    if (this.#held === 0) this.activity();
  }

  dispose(): void {
    clearTimeout(this.#first);
    clearTimeout(this.#idle);
    this.#fired = true;
  }

  #fire(which: "first_output" | "inactivity"): void {
    if (this.#fired) return;
    this.#fired = true;
    clearTimeout(this.#first);
    clearTimeout(this.#idle);
    this.onTimeout(which);
  }
}
