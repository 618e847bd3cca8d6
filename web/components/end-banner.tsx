/** How the run ended: the reason, and what to do about a failure (the command to copy, guidance). */
import type { RunEnding } from "../state/run-state.ts";
import { CopyCommand } from "./copy-button.tsx";

const TITLES: Record<RunEnding["status"], string> = { succeeded: "Done", failed: "The run failed", canceled: "Stopped" };

export function EndBanner({ end }: { end: RunEnding }) {
  return (
    <div class={`end-banner status-${end.status}`} data-testid="end-banner" data-status={end.status} data-category={end.failureCategory}>
      <strong>{TITLES[end.status]}</strong>
      {end.status !== "succeeded" && end.reason && end.reason !== end.status && <span class="end-reason"> — {end.reason}</span>}
      {end.failureCategory === "auth" && !end.fixCommand && <p>Sign in to the agent's CLI in a terminal, then send again.</p>}
      {end.guidance && <p class="end-guidance">{end.guidance}</p>}
      {end.fixCommand && (
        <p>
          {end.failureCategory === "auth" ? "Sign in with: " : "Fix: "}
          <CopyCommand command={end.fixCommand} />
        </p>
      )}
      {end.failureDetail && end.status === "failed" && <p class="muted">({end.failureDetail})</p>}
    </div>
  );
}
