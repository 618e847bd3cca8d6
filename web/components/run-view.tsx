/** One assistant turn: status line, its items (text, thinking, tool cards, sub-agents, notices), usage and the end banner. */
import { memo } from "preact/compat";
import { useEffect, useMemo, useState } from "preact/hooks";
import { runWriteChanges } from "../lib/write-changes.ts";
import { sectionsOf } from "../state/disclosures.ts";
import type { RunChangesModel } from "../state/run-changes.ts";
import { elapsedMs } from "../state/run-model.ts";
import type { RunState } from "../state/run-state.ts";
import { ChangedFiles } from "./changed-files.tsx";
import { DisclosureScope } from "./disclosure.tsx";
import { EndBanner } from "./end-banner.tsx";
import { estimateItem } from "./row-heights.ts";
import { RunItemView } from "./run-items.tsx";
import { VirtualList } from "./virtual-list.tsx";
import { WriteChangesContext } from "./write-changes-context.ts";

function seconds(ms: number | undefined): string {
  return ms === undefined ? "" : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)}s`;
}

/** Re-renders every second while `active`, for the elapsed clock. */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

export function StatusLine({ state, live }: { state: RunState; live: boolean }) {
  const running = live && !state.end;
  const now = useNow(running);
  const elapsed = elapsedMs(state, now);
  return (
    <div class="run-status" data-testid="run-status" data-status={state.statusLabel} data-running={running ? "true" : "false"}>
      {running && <span class="spinner" aria-hidden="true" />}
      <span class="status-label">{state.statusLabel}</span>
      {state.agentId && <span class="muted"> · {state.agentId}</span>}
      {state.model && <span class="muted" data-testid="run-model"> · {state.model}</span>}
      {state.ttftMs !== undefined && (
        <span class="muted" data-testid="run-first-token" title="from the start to the agent's first output of any kind: thinking, a tool call or text">
          {" "}
          · first token {seconds(state.ttftMs)}
        </span>
      )}
      {elapsed !== undefined && <span class="muted"> · {seconds(elapsed)}</span>}
    </div>
  );
}

/** Wall-clock length of the run as od measured it (start → end), else what the agent reported. */
function runDurationMs(state: RunState): number | undefined {
  if (state.end && state.end.durationMs > 0) return state.end.durationMs;
  if (state.startedAt !== undefined && state.endedAt !== undefined) return Math.max(0, state.endedAt - state.startedAt);
  return state.usage?.durationMs;
}

/** Tokens, cost (only when the CLI reported one) and duration of the run. */
function Usage({ state }: { state: RunState }) {
  const u = state.usage ?? {};
  const duration = state.end ? runDurationMs(state) : undefined;
  const parts = [
    u.inputTokens !== undefined && `${u.inputTokens.toLocaleString()} in`,
    u.outputTokens !== undefined && `${u.outputTokens.toLocaleString()} out`,
    u.thoughtTokens !== undefined && `${u.thoughtTokens.toLocaleString()} thinking`,
    u.cachedReadTokens ? `${u.cachedReadTokens.toLocaleString()} cached` : false,
    u.costUsd !== undefined && `$${u.costUsd.toFixed(4)}`,
    duration !== undefined && seconds(duration),
  ].filter(Boolean);
  return parts.length ? (
    <div class="usage" data-testid="usage">
      {parts.join(" · ")}
    </div>
  ) : null;
}

/** The gap between a run's items (`.run` in styles.css). */
const ITEM_GAP = 8;

/**
 * A turn, memoized on its state: a finished turn above a live one keeps its state object, so it never re-renders
 * while the live one streams. Its items are windowed (only those near the viewport are in the DOM).
 */
export const RunView = memo(function RunView({ state, live, onOpenFile, changes, trouble }: {
  state: RunState;
  live: boolean;
  onOpenFile?: (path: string) => void;
  changes?: RunChangesModel;
  /** Why the live stream is not getting through, while it is not. */
  trouble?: string | null;
}) {
  // Once the run has ended, its recorded changes tell a Write that overwrote a file what it replaced.
  const recorded = state.end && changes ? changes.of(state.runId).value : undefined;
  const writeChanges = useMemo(() => (recorded?.kind === "loaded" ? runWriteChanges(recorded.changes, state.items) : null), [recorded, state.items]);
  // Rows never shown yet are guessed with their sections as the reader left them (kept across reloads).
  const sections = useMemo(() => sectionsOf(state.runId), [state.runId]);
  return (
    <DisclosureScope.Provider value={state.runId}>
      <div class="run" data-run-id={state.runId}>
        <StatusLine state={state} live={live} />
        <WriteChangesContext.Provider value={writeChanges}>
          <VirtualList
            items={state.items}
            keyOf={(item) => item.key}
            estimate={(item) => estimateItem(item, ITEM_GAP, sections)}
            stableEstimates
            render={(item) => <RunItemView item={item} onOpenFile={onOpenFile} />}
          />
        </WriteChangesContext.Provider>
        {trouble && <p class="muted">{trouble}</p>}
        {state.output && (
          <details class="raw-output">
            <summary>Unparsed output</summary>
            <pre>{state.output}</pre>
          </details>
        )}
        <Usage state={state} />
        {state.end && changes && <ChangedFiles runId={state.runId} model={changes} onOpenFile={onOpenFile} />}
        {state.end && <EndBanner end={state.end} />}
      </div>
    </DisclosureScope.Provider>
  );
});
