/**
 * Two timers that keep a run from spinning forever: no substantive output within `firstOutputMs` of the start,
 * or no bytes at all for `inactivityMs`. Either one fires once and asks the attempt to stop the agent.
 */
export type WatchdogTimeouts = { firstOutputMs: number; inactivityMs: number };

export class Watchdog {
  #first: ReturnType<typeof setTimeout> | undefined;
  #idle: ReturnType<typeof setTimeout> | undefined;
  #fired = false;

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
    this.#idle = setTimeout(() => this.#fire("inactivity"), this.timeouts.inactivityMs);
  }

  /** The agent produced something a person would see: the first-output watch is satisfied. */
  sawOutput(): void {
    clearTimeout(this.#first);
    this.#first = undefined;
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
