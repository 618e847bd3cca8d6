/** The files each finished run changed, with diffs (`GET /api/runs/:id/changes`), loaded once per run on demand. */
import { signal, type ReadonlySignal, type Signal } from "@preact/signals";
import type { FileChange, RunChangesResponse } from "../../server/contracts/changes.ts";
import { errorMessage, type Api } from "../api/client.ts";

export type RunChangesState =
  | { kind: "loading" }
  | { kind: "loaded"; changes: FileChange[]; source: RunChangesResponse["source"] }
  | { kind: "error"; message: string };

export function createRunChangesModel(api: Api) {
  const byRun = new Map<string, Signal<RunChangesState>>();

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

  return { of };
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
