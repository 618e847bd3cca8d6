/** A detection pass with a deadline, shared by the local catalog and the per-location detections of other hosts. */
import type { AgentInfo } from "../contracts/agents.ts";
import { detectAgentsStream } from "./detect-all.ts";
import type { DetectedAgent, DetectionDeps } from "./detection.ts";
import type { RuntimeAgentDef } from "./types.ts";

export type PassOptions = {
  /** `Infinity`: wait for every def. */
  deadlineMs: number;
  /** What to report for a def still probing at the deadline. */
  standIn: (def: RuntimeAgentDef, waitedMs: number) => AgentInfo;
  onSettle: (agent: DetectedAgent) => void;
};

/**
 * One detection pass that any number of readers can follow while it runs. At its deadline it stops making readers
 * wait: each def still probing gets a stand-in, and its real result follows when its probes finish.
 */
export class DetectionPass {
  /** Every def's real result, in registry order, once all have settled. */
  readonly done: Promise<DetectedAgent[]>;
  /** Every def has settled, or the deadline passed. */
  readonly ready: Promise<void>;
  readonly #defs: readonly RuntimeAgentDef[];
  readonly #settled = new Map<string, DetectedAgent>();
  readonly #standIns = new Map<string, AgentInfo>();
  /** What followers see, in order: each result as it settles, and the stand-ins at the deadline. */
  readonly #log: AgentInfo[] = [];
  readonly #abort = new AbortController();
  #finished = false;
  #waiters: Array<() => void> = [];

  constructor(defs: readonly RuntimeAgentDef[], deps: DetectionDeps, options: PassOptions) {
    this.#defs = defs;
    let timer: ReturnType<typeof setTimeout> | undefined;
    this.done = (async () => {
      try {
        for await (const agent of detectAgentsStream(defs, { ...deps, signal: this.#abort.signal })) {
          options.onSettle(agent);
          this.#settled.set(agent.info.id, agent);
          this.#log.push(agent.info);
          this.#wake();
        }
      } finally {
        clearTimeout(timer);
        this.#finished = true;
        this.#wake();
      }
      return settledOf(defs, this.#settled);
    })();
    const deadline = new Promise<void>((resolve) => {
      if (!Number.isFinite(options.deadlineMs)) return;
      timer = setTimeout(() => {
        this.#standInForPending(options, options.deadlineMs);
        resolve();
      }, options.deadlineMs);
      // A pass never keeps a process alive by itself: its probes do, for as long as they are wanted.
      (timer as { unref?: () => void }).unref?.();
    });
    this.ready = Promise.race([this.done.then(() => undefined), deadline]);
  }

  #standInForPending(options: PassOptions, waitedMs: number): void {
    for (const def of this.#defs) {
      if (this.#settled.has(def.id)) continue;
      const standIn = options.standIn(def, waitedMs);
      this.#standIns.set(def.id, standIn);
      this.#log.push(standIn);
    }
    this.#wake();
  }

  #wake(): void {
    for (const waiter of this.#waiters.splice(0)) waiter();
  }

  /** Each def's real result, or its stand-in while it is still probing; registry order. Call after `ready`. */
  snapshot(): AgentInfo[] {
    const infos: AgentInfo[] = [];
    for (const def of this.#defs) {
      const info = this.#settled.get(def.id)?.info ?? this.#standIns.get(def.id);
      if (info) infos.push(info);
    }
    return infos;
  }

  /**
   * One def's real result once its probes finish, or undefined when `maxWaitMs` passes first (or the pass ends
   * without it). A run for a def still probing waits here instead of being refused.
   */
  async settled(defId: string, maxWaitMs: number): Promise<DetectedAgent | undefined> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let waitedOut = false;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        waitedOut = true;
        resolve();
      }, maxWaitMs);
    });
    try {
      while (!this.#settled.has(defId) && !this.#finished && !waitedOut) {
        await Promise.race([new Promise<void>((resolve) => this.#waiters.push(resolve)), timeout]);
      }
      return this.#settled.get(defId);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Kill the probes still running; the defs they belong to settle at once, with a timed-out probe. */
  abort(): void {
    this.#abort.abort();
  }

  /** Everything reported so far, then each new report (a stand-in, a result), in order. */
  async *follow(): AsyncGenerator<AgentInfo> {
    for (let index = 0; ; ) {
      if (index < this.#log.length) {
        yield this.#log[index++] as AgentInfo;
        continue;
      }
      if (this.#finished) return;
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }
}

/**
 * The settled results of `defs`, in their order. Loops here and in `snapshot` rather than `flatMap`: a pass runs with
 * every `od run`, and the first `flatMap` a process calls costs it ~0.1 ms (the engine compiles the builtin on first
 * use).
 */
function settledOf(defs: readonly RuntimeAgentDef[], settled: ReadonlyMap<string, DetectedAgent>): DetectedAgent[] {
  const found: DetectedAgent[] = [];
  for (const def of defs) {
    const agent = settled.get(def.id);
    if (agent) found.push(agent);
  }
  return found;
}
