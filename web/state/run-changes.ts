/**
 * The files each finished run changed, with diffs (`GET /api/runs/:id/changes`), loaded once per run on demand; and
 * putting them back (`POST /api/runs/:id/revert`), all or nothing, which od refuses for a file changed since.
 */
import { signal, type ReadonlySignal, type Signal } from "@preact/signals";
import type { FileChange, RevertRunResponse, RunChangesResponse } from "../../server/contracts/changes.ts";
import { errorMessage, type Api } from "../api/client.ts";

export type RunChangesState =
  | { kind: "loading" }
  | { kind: "loaded"; changes: FileChange[]; source: RunChangesResponse["source"] }
  | { kind: "error"; message: string };

/** A revert of one run's changes: asked, done (the files put back), or refused with od's reason. */
export type RevertState = { kind: "idle" } | { kind: "working" } | { kind: "done"; reverted: string[] } | { kind: "error"; message: string };

/** `onFilesChanged`: told when a revert wrote the project's files (the files panel lists them again). */
export function createRunChangesModel(api: Api, onFilesChanged?: () => void) {
  const byRun = new Map<string, Signal<RunChangesState>>();
  const reverts = new Map<string, Signal<RevertState>>();

  function revertOf(runId: string): Signal<RevertState> {
    let state = reverts.get(runId);
    if (!state) {
      state = signal<RevertState>({ kind: "idle" }, { name: `revert.${runId}` });
      reverts.set(runId, state);
    }
    return state;
  }

  /** Puts the run's changes back; the answer (or od's refusal) is the run's revert state. */
  async function revert(runId: string): Promise<void> {
    const state = revertOf(runId);
    if (state.peek().kind === "working") return;
    state.value = { kind: "working" };
    try {
      const { reverted } = await api.post<RevertRunResponse>(`/api/runs/${encodeURIComponent(runId)}/revert`, {});
      state.value = { kind: "done", reverted };
      onFilesChanged?.();
    } catch (error) {
      state.value = { kind: "error", message: errorMessage(error) };
    }
  }

  async function load(runId: string, state: Signal<RunChangesState>): Promise<void> {
    try {
      const body = await api.get<RunChangesResponse>(`/api/runs/${encodeURIComponent(runId)}/changes`);
      state.value = { kind: "loaded", changes: body.changes, source: body.source };
    } catch (error) {
      state.value = { kind: "error", message: errorMessage(error) };
    }
  }

  /** The changes of a run that has ended (the first call starts the load). */
  function of(runId: string): ReadonlySignal<RunChangesState> {
    let state = byRun.get(runId);
    if (!state) {
      state = signal<RunChangesState>({ kind: "loading" }, { name: `changes.${runId}` });
      byRun.set(runId, state);
      void load(runId, state);
    }
    return state;
  }

  /**
   * How far the run's changes got (undefined: nothing asked for them yet), without starting their load. Read in a
   * render, it renders again when they arrive.
   */
  function progressOf(runId: string): RunChangesState["kind"] | undefined {
    return byRun.get(runId)?.value.kind;
  }

  return { of, progressOf, revertOf: (runId: string): ReadonlySignal<RevertState> => revertOf(runId), revert };
}
export type RunChangesModel = ReturnType<typeof createRunChangesModel>;

/** A unified diff's lines, each with its role for colouring. */
export type DiffLine = { text: string; role: "header" | "hunk" | "add" | "del" | "context" | "note" };

export function diffLines(diff: string): DiffLine[] {
  const lines = diff.endsWith("\n") ? diff.slice(0, -1).split("\n") : diff.split("\n");
  return lines.map((text) => ({
    text,
    role: text.startsWith("+++") || text.startsWith("---") ? "header" : text.startsWith("@@") ? "hunk" : text.startsWith("+") ? "add" : text.startsWith("-") ? "del" : text.startsWith("\\") ? "note" : "context",
  }));
}
