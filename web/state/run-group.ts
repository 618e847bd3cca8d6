/**
 * A run group open in the page: one prompt sent to several agents, each run in its own worktree. Its runs stream side
 * by side (a RunModel each); the group's summary (status, time, usage, change stats, worktree state) is read again as
 * each run ends and after each apply or discard. One tab is chosen for narrow screens, where the runs are tabs.
 */
import { computed, signal } from "@preact/signals";
import type { ApplyMode, CreateRunGroupRequest, CreateRunGroupResponse, RunGroupResponse } from "../../server/contracts/worktrees.ts";
import { errorMessage, type Api } from "../api/client.ts";
import type { RunEventStream } from "../api/run-events.ts";
import { createRunModel, type RunModel } from "./run-model.ts";
import type { FrameScheduler } from "./scheduler.ts";

export interface RunGroupModelOptions {
  api: Api;
  stream: RunEventStream;
  schedule?: FrameScheduler;
  /** A run of the group ended (the sidebar lists its conversation). */
  onRunEnded?: () => void;
}

export function createRunGroupModel(options: RunGroupModelOptions) {
  const { api } = options;
  const group = signal<RunGroupResponse | null>(null, { name: "group.summary" });
  const runs = signal<RunModel[]>([], { name: "group.runs" });
  const tab = signal<string | null>(null, { name: "group.tab" });
  const error = signal<string | null>(null, { name: "group.error" });
  /** The run whose apply or discard is in flight. */
  const busy = signal<string | null>(null, { name: "group.busy" });
  let generation = 0;

  const allEnded = computed(() => runs.value.length > 0 && runs.value.every((run) => !run.running.value), { name: "group.allEnded" });
  const applied = computed(() => group.value?.runs.find((run) => run.worktree?.state === "applied")?.runId ?? null, { name: "group.applied" });

  async function refresh(): Promise<void> {
    const id = group.peek()?.groupId;
    if (!id) return;
    const mine = generation;
    try {
      const summary = await api.get<RunGroupResponse>(`/api/run-groups/${encodeURIComponent(id)}`);
      if (mine === generation) group.value = summary;
    } catch (loadError) {
      if (mine === generation) error.value = errorMessage(loadError);
    }
  }

  /** Shows a group and streams its runs. */
  async function open(groupId: string): Promise<void> {
    close();
    const mine = ++generation;
    const summary = await api.get<RunGroupResponse>(`/api/run-groups/${encodeURIComponent(groupId)}`);
    if (mine !== generation) return;
    group.value = summary;
    tab.value = summary.runs[0]?.runId ?? null;
    runs.value = summary.runs.map(({ runId }) => {
      const run = createRunModel({
        runId,
        api,
        stream: options.stream,
        schedule: options.schedule,
        onEnd: () => {
          if (mine !== generation) return;
          void refresh();
          options.onRunEnded?.();
        },
      });
      run.connect();
      return run;
    });
  }

  /** Sends one prompt to the agents; resolves false (with the reason in `error`) when the daemon refused it. */
  async function start(request: CreateRunGroupRequest): Promise<boolean> {
    error.value = null;
    try {
      const created = await api.post<CreateRunGroupResponse>("/api/run-groups", request);
      await open(created.groupId);
      return true;
    } catch (startError) {
      error.value = errorMessage(startError);
      return false;
    }
  }

  async function act(runId: string, action: () => Promise<unknown>): Promise<void> {
    busy.value = runId;
    error.value = null;
    try {
      await action();
    } catch (actError) {
      error.value = errorMessage(actError);
    } finally {
      busy.value = null;
      await refresh();
    }
  }

  /** Brings one run's changes into the checkout. */
  const apply = (runId: string, mode: ApplyMode = "uncommitted") =>
    act(runId, () => api.post(`/api/runs/${encodeURIComponent(runId)}/apply`, mode === "uncommitted" ? { mode } : { mode, message: `${group.peek()?.message.split("\n")[0] ?? "od run"}` }));

  /** Removes one run's worktree and branch. */
  const discard = (runId: string) => act(runId, () => api.post(`/api/runs/${encodeURIComponent(runId)}/discard`));

  /** Discards every run of the group but the applied one. */
  async function discardOthers(): Promise<void> {
    const keep = applied.peek();
    for (const run of group.peek()?.runs ?? []) {
      if (run.runId !== keep && run.worktree?.state === "active") await discard(run.runId);
    }
  }

  function close(): void {
    generation++;
    for (const run of runs.peek()) run.dispose();
    runs.value = [];
    group.value = null;
    tab.value = null;
    error.value = null;
  }

  return { group, runs, tab, error, busy, allEnded, applied, open, start, apply, discard, discardOthers, refresh, close, [Symbol.dispose]: close };
}
export type RunGroupModel = ReturnType<typeof createRunGroupModel>;
