// A conversation's next run tells what became of its earlier runs' remote clean-up (Issue #35): each one still
// pending, and each that finished since the run before; one told in an earlier run is not told again.
import { expect, test } from "bun:test";
import type { RunCleanup, RunSummary } from "../../server/contracts/runs.ts";
import { earlierCleanupNotices } from "../../server/runs/cleanup-notices.ts";

function run(id: string, createdAt: number, cleanup?: RunCleanup): RunSummary {
  return {
    id, projectId: "p", conversationId: "c", agentId: "claude", model: null, reasoning: null, status: "canceled", createdAt,
    startedAt: createdAt, endedAt: createdAt + 1, pid: null, exitCode: null, signal: null, failureCategory: null,
    failureDetail: null, reason: null, errorCode: null, files: [], cancelRequested: true, lastEventId: 3, isolation: "none",
    ...(cleanup ? { cleanup } : {}),
  };
}

test("pending clean-ups, and those finished since the previous run, are told; older news is not", () => {
  const runs = [
    run("run_now", 500),
    run("run_prev", 400),
    run("run_pending", 300, { status: "pending", since: 310, attempts: 4, lastError: "no answer within 33 s" }),
    run("run_done_lately", 200, { status: "done", since: 210, attempts: 2, finishedAt: 450 }),
    run("run_done_long_ago", 100, { status: "done", since: 110, attempts: 1, finishedAt: 150 }),
    run("run_clean", 50),
  ];
  const notices = earlierCleanupNotices(runs, "run_now", "build-box");
  expect(notices.map((n) => n.type === "diagnostic" && [n.kind, (n.detail as { runId: string }).runId])).toEqual([
    ["earlier_cleanup", "run_pending"],
    ["earlier_cleanup", "run_done_lately"],
  ]);
  expect(notices[0]).toMatchObject({ message: expect.stringContaining("still pending"), detail: { status: "pending", attempts: 4 } });
  expect(notices[1]).toMatchObject({ message: expect.stringContaining("finished at 1970-01-01T00:00:00.450Z"), detail: { finishedAt: 450 } });
  expect(earlierCleanupNotices([run("run_now", 500)], "run_now", "build-box")).toEqual([]);
});
