/**
 * The open conversation's worktree, when its runs work in one: which branch, what was carried over, and whether it
 * was applied or discarded; with Apply and Discard for its latest run. Read when the conversation opens and when a run
 * of it ends.
 */
import { signal } from "@preact/signals";
import type { RunSummary } from "../../server/contracts/runs.ts";
import type { WorktreeInfo } from "../../server/contracts/worktrees.ts";
import { errorMessage, type Api } from "../api/client.ts";

export function createConversationWorktreeModel(api: Api) {
  /** The conversation's latest run and its worktree; null for a conversation whose runs work in the project's folder. */
  const current = signal<{ runId: string; running: boolean; worktree: WorktreeInfo } | null>(null, { name: "worktree.current" });
  const busy = signal(false, { name: "worktree.busy" });
  const error = signal<string | null>(null, { name: "worktree.error" });
  let conversationId: string | null = null;
  let generation = 0;

  async function load(id: string | null): Promise<void> {
    const mine = ++generation;
    if (id !== conversationId) {
      current.value = null;
      error.value = null;
    }
    conversationId = id;
    if (!id) return;
    try {
      const { runs } = await api.get<{ runs: RunSummary[] }>(`/api/runs?${new URLSearchParams({ conversationId: id })}`);
      if (mine !== generation) return;
      const latest = runs[0];
      current.value = latest?.worktree ? { runId: latest.id, running: latest.status === "queued" || latest.status === "running", worktree: latest.worktree } : null;
    } catch (loadError) {
      if (mine === generation) error.value = errorMessage(loadError);
    }
  }

  async function act(path: "apply" | "discard"): Promise<void> {
    const run = current.peek();
    if (!run) return;
    busy.value = true;
    error.value = null;
    try {
      await api.post(`/api/runs/${encodeURIComponent(run.runId)}/${path}`, path === "apply" ? { mode: "uncommitted" } : undefined);
    } catch (actError) {
      error.value = errorMessage(actError);
    } finally {
      busy.value = false;
      await load(conversationId);
    }
  }

  return { current, busy, error, load, apply: () => act("apply"), discard: () => act("discard") };
}
export type ConversationWorktreeModel = ReturnType<typeof createConversationWorktreeModel>;
