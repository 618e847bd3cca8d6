/**
 * What a conversation's next run says of its earlier runs' remote clean-up (server/runs/remote-cleanups.ts). A run's
 * `end` is always its last event, so a clean-up that finishes after it cannot be told in that run's events: the next
 * run of the conversation tells it instead — each clean-up still pending, and each that finished since the run before.
 */
import type { NewRunEvent, RunSummary } from "../contracts/runs.ts";

/** `runs`: the conversation's runs, newest first (RunsRepo.list); `where`: the location they ran on, for people. */
export function earlierCleanupNotices(runs: readonly RunSummary[], currentRunId: string, where: string): NewRunEvent[] {
  const earlier = runs.filter((run) => run.id !== currentRunId);
  const previousStart = earlier[0]?.createdAt ?? 0;
  const notices: NewRunEvent[] = [];
  for (const run of earlier) {
    const cleanup = run.cleanup;
    if (!cleanup) continue;
    if (cleanup.status === "pending") {
      notices.push({
        type: "diagnostic",
        kind: "earlier_cleanup",
        message: `the clean-up of earlier run ${run.id} on ${where} is still pending (since ${new Date(cleanup.since).toISOString()}); od retries it when ${where} answers`,
        detail: { runId: run.id, ...cleanup },
      });
    } else if (cleanup.finishedAt !== undefined && cleanup.finishedAt >= previousStart) {
      notices.push({
        type: "diagnostic",
        kind: "earlier_cleanup",
        message: `the clean-up of earlier run ${run.id} on ${where} finished at ${new Date(cleanup.finishedAt).toISOString()}: nothing of it is left running there`,
        detail: { runId: run.id, ...cleanup },
      });
    }
  }
  return notices;
}
