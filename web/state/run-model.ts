/**
 * One run, live: subscribes to its event stream, queues events in a plain array and folds them into the state
 * signal once per frame, so hundreds of deltas per second cost one render per frame.
 */
import { computed, signal } from "@preact/signals";
import type { RunEvent } from "../../server/contracts/runs.ts";
import type { Api } from "../api/client.ts";
import type { RunEventStream } from "../api/run-events.ts";
import { RunDraft } from "./run-draft.ts";
import { foldRunEvent } from "./run-fold.ts";
import { emptyRunState, type RunState } from "./run-state.ts";
import { animationFrameScheduler, type FrameScheduler } from "./scheduler.ts";

export interface RunModelOptions {
  runId: string;
  /** Where events come from; absent → events only arrive through `receive` (tests, history). */
  stream?: RunEventStream;
  api?: Api;
  schedule?: FrameScheduler;
  /** Called after a flush in which the run wrote files. */
  onFilesChanged?: () => void;
  /** Called once, after the flush that folded `end`. */
  onEnd?: (state: RunState) => void;
}

export function createRunModel(options: RunModelOptions) {
  const { runId, schedule = animationFrameScheduler } = options;
  const draft = new RunDraft(emptyRunState(runId));
  const state = signal<RunState>(draft.snapshot(), { name: `run.${runId}.state` });
  const trouble = signal<string | null>(null, { name: `run.${runId}.trouble` });
  const running = computed(() => state.value.end === undefined, { name: `run.${runId}.running` });
  const pending: RunEvent[] = [];
  let scheduled = false;
  let ended = false;
  let unsubscribe: (() => void) | null = null;

  function receive(event: RunEvent): void {
    pending.push(event);
    if (scheduled) return;
    scheduled = true;
    schedule(flush);
  }

  /** Folds everything queued and publishes one snapshot. */
  function flush(): void {
    scheduled = false;
    if (pending.length === 0) return;
    let filesChanged = false;
    for (const event of pending.splice(0)) filesChanged = foldRunEvent(draft, event).filesChanged || filesChanged;
    state.value = draft.snapshot();
    trouble.value = null;
    if (filesChanged) options.onFilesChanged?.();
    if (!ended && draft.state.end) {
      ended = true;
      unsubscribe?.();
      unsubscribe = null;
      options.onEnd?.(state.peek());
    }
  }

  function connect(): void {
    if (unsubscribe || ended || !options.stream) return;
    unsubscribe = options.stream(runId, receive, (message) => (trouble.value = message));
  }

  async function cancel(): Promise<void> {
    await options.api?.post(`/api/runs/${encodeURIComponent(runId)}/cancel`);
  }

  async function sendInput(message: string): Promise<void> {
    await options.api?.post(`/api/runs/${encodeURIComponent(runId)}/input`, { message });
  }

  function dispose(): void {
    unsubscribe?.();
    unsubscribe = null;
    pending.length = 0;
  }

  return { runId, state, running, trouble, receive, flush, connect, cancel, sendInput, dispose, [Symbol.dispose]: dispose };
}
export type RunModel = ReturnType<typeof createRunModel>;

/** Milliseconds since the run started, until it ended (`now` from the caller's clock). */
export function elapsedMs(state: RunState, now: number): number | undefined {
  if (state.startedAt === undefined) return undefined;
  return Math.max(0, (state.endedAt ?? now) - state.startedAt);
}
