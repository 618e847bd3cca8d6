/**
 * Per-stage watchdog: a stage (initialize, session/new, prompt…) fails when the agent stays silent for longer than
 * the budget. Any inbound line resets the timer. A budget ≤ 0 disables it.
 */
export class StageWatchdog {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stage: string | null = null;
  /** Requests of the agent waiting for a person: the agent's silence then is no stall. */
  private paused = 0;

  constructor(
    private readonly timeoutMs: number,
    private readonly onTimeout: (stage: string) => void,
  ) {}

  /** Enter a stage (restarts the timer). */
  start(stage: string): void {
    this.stage = stage;
    this.arm();
  }

  /** The agent said something: restart the timer of the current stage. */
  touch(): void {
    if (this.stage !== null) this.arm();
  }

  /** A person is answering the agent: no stage times out until `resume`. */
  pause(): void {
    this.paused++;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** The answer went back: the current stage's timer starts again from now. */
  resume(): void {
    this.paused = Math.max(0, this.paused - 1);
    if (this.paused === 0) this.arm();
  }

  stop(): void {
    this.stage = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!(this.timeoutMs > 0) || this.stage === null || this.paused > 0) return;
    const stage = this.stage;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.stage === stage) this.onTimeout(stage);
    }, this.timeoutMs);
  }
}

/** Reads a millisecond budget from the env: missing/invalid → fallback; ≤0 → disabled (returned as 0). */
export function timeoutFromEnv(value: string | undefined, fallbackMs: number): number {
  if (value === undefined || value.trim() === "") return fallbackMs;
  const parsed = Number(value);
  if (!Number.isFinite(parsed)) return fallbackMs;
  return parsed <= 0 ? 0 : parsed;
}
