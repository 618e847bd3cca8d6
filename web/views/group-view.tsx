/**
 * One prompt, several agents: their runs as columns streaming side by side (tabs on a phone), then a compare view of
 * their diffs file by file, with Apply on each run and Discard for the rest. Each run works in its own worktree, so
 * nothing reaches the checkout until one is applied.
 */
import { memo } from "preact/compat";
import type { FileChange } from "../../server/contracts/changes.ts";
import type { RunGroupRun } from "../../server/contracts/worktrees.ts";
import { ChangeDiff } from "../components/changed-files.tsx";
import { RunView } from "../components/run-view.tsx";
import type { AppModel } from "../state/app.ts";
import type { RunChangesModel } from "../state/run-changes.ts";
import type { RunGroupModel } from "../state/run-group.ts";
import type { RunModel } from "../state/run-model.ts";

/** One run's column: only it reads its state, so a frame of one run re-renders its column alone. */
const GroupColumn = memo(function GroupColumn({ run, name, summary, selected, changes, onOpenFile }: {
  run: RunModel;
  /** The agent's name for people. */
  name: string;
  summary: RunGroupRun | undefined;
  selected: boolean;
  changes: RunChangesModel;
  onOpenFile: (path: string) => void;
}) {
  const state = run.state.value;
  return (
    <section
      class={`group-column${selected ? " selected" : ""}`}
      data-testid="group-column"
      data-run-id={run.runId}
      data-status={state.end?.status ?? "running"}
      id={`group-run-${run.runId}`}
      role="tabpanel"
      aria-label={name}
    >
      <header class="group-column-head">
        <strong>{name}</strong>
        {summary?.worktree && <code class="muted" title={summary.worktree.folder}>{summary.worktree.branch}</code>}
      </header>
      <RunView state={state} live onOpenFile={onOpenFile} changes={changes} trouble={run.trouble.value} />
    </section>
  );
});

function seconds(ms: number | null): string {
  return ms === null ? "" : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/** A run's line in the compare view: what it cost, what it changed, and what may be done with it. */
function RunVerdict({ run, name, model }: { run: RunGroupRun; name: string; model: RunGroupModel }) {
  const state = run.worktree?.state ?? "active";
  const busy = model.busy.value !== null;
  const tokens = run.inputTokens !== null || run.outputTokens !== null ? `${(run.inputTokens ?? 0) + (run.outputTokens ?? 0)} tokens` : "";
  const cost = run.costUsd !== null ? `$${run.costUsd.toFixed(4)}` : "";
  const stats = run.changes ? `${run.changes.files} file${run.changes.files === 1 ? "" : "s"} +${run.changes.additions} −${run.changes.deletions}` : "no changes recorded";
  return (
    <li class="group-verdict" data-testid="group-verdict" data-run-id={run.runId} data-state={state}>
      <strong>{name}</strong>
      <span class="muted">
        {run.status} · {seconds(run.durationMs)}
        {tokens && ` · ${tokens}`}
        {cost && ` · ${cost}`} · {stats}
      </span>
      <span class="spacer" />
      {state === "active" && (
        <>
          <button type="button" class="primary" data-testid="group-apply" disabled={busy || !run.changes?.files} onClick={() => void model.apply(run.runId)} title="Bring this run's changes into your checkout as uncommitted changes">
            Apply
          </button>
          <button type="button" class="ghost" data-testid="group-discard" disabled={busy} onClick={() => void model.discard(run.runId)} title="Remove this run's worktree and branch">
            Discard
          </button>
        </>
      )}
      {state === "applied" && <span class="badge ok" data-testid="group-applied">Applied</span>}
      {state === "discarded" && <span class="muted">discarded</span>}
    </li>
  );
}

/** Every file any run changed, each run's diff of it side by side. */
function Compare({ model, changes, nameOf }: { model: RunGroupModel; changes: RunChangesModel; nameOf: (agentId: string) => string }) {
  const runs = model.group.value?.runs ?? [];
  const loaded = runs.map((run) => changes.of(run.runId).value);
  const byRun = loaded.map((state) => new Map<string, FileChange>(state.kind === "loaded" ? state.changes.map((c) => [c.path, c]) : []));
  const paths = [...new Set(byRun.flatMap((changesOf) => [...changesOf.keys()]))].sort();
  return (
    <section class="compare" data-testid="compare" aria-label="Compare the runs' changes">
      <h2>Compare</h2>
      <ul class="group-verdicts">
        {runs.map((run) => (
          <RunVerdict key={run.runId} run={run} name={nameOf(run.agentId)} model={model} />
        ))}
      </ul>
      {model.applied.value && runs.some((run) => run.worktree?.state === "active") && (
        <button type="button" class="ghost" data-testid="group-discard-others" onClick={() => void model.discardOthers()}>
          Discard the others
        </button>
      )}
      {paths.length === 0 && loaded.every((state) => state.kind !== "loading") && <p class="muted">No run changed a file.</p>}
      {paths.map((path) => (
        <section key={path} class="compare-file" data-testid="compare-file" data-path={path}>
          <h3>
            <code>{path}</code>
          </h3>
          <div class="compare-columns" style={{ "--runs": runs.length }}>
            {runs.map((run, i) => {
              const change = byRun[i]!.get(path);
              // A run whose changes are not in yet (or could not be read) is not "unchanged": it says which.
              const state = loaded[i]!;
              const kind = change?.kind ?? (state.kind === "loaded" ? "unchanged" : state.kind === "loading" ? "loading" : "unknown");
              const said = change ? `${change.kind} +${change.additions} −${change.deletions}` : kind === "loading" ? "loading…" : kind === "unknown" ? "changes could not be read" : "unchanged";
              return (
                <div key={run.runId} class="compare-cell" data-testid="compare-cell" data-run-id={run.runId} data-kind={kind}>
                  <div class="muted compare-agent">
                    {nameOf(run.agentId)} · {said}
                  </div>
                  {change && <ChangeDiff change={change} />}
                </div>
              );
            })}
          </div>
        </section>
      ))}
    </section>
  );
}

export function GroupView({ app }: { app: AppModel }) {
  const model = app.group;
  const group = model.group.value;
  if (!group) return null;
  const runs = model.runs.value;
  const summaries = new Map(group.runs.map((run) => [run.runId, run]));
  const nameOf = (agentId: string) => app.agents.byId(agentId)?.name ?? agentId;
  // From the group's summary, never a run's state: reading that here would re-render every column with each frame.
  const runName = (run: RunModel) => nameOf(summaries.get(run.runId)?.agentId ?? run.runId);
  const openFile = (path: string) => {
    void app.files.select(path);
    app.drawer.value = "files";
  };
  return (
    <div class="group-view" data-testid="group-view">
      <header class="group-head">
        <div>
          <h1>{group.runs.length} agents, one prompt</h1>
          <p class="muted group-message">{group.message}</p>
        </div>
        <button type="button" class="ghost" data-testid="group-close" onClick={model.close}>
          Close
        </button>
      </header>
      <div class="group-tabs" role="tablist" aria-label="Runs">
        {runs.map((run) => (
          <button
            key={run.runId}
            type="button"
            role="tab"
            data-testid="group-tab"
            aria-selected={model.tab.value === run.runId}
            aria-controls={`group-run-${run.runId}`}
            onClick={() => (model.tab.value = run.runId)}
          >
            {runName(run)}
            <span class="muted"> · {summaries.get(run.runId)?.status ?? "running"}</span>
          </button>
        ))}
      </div>
      <div class="group-columns" style={{ "--runs": runs.length }}>
        {runs.map((run) => (
          <GroupColumn key={run.runId} run={run} name={runName(run)} summary={summaries.get(run.runId)} selected={model.tab.value === run.runId} changes={app.changes} onOpenFile={openFile} />
        ))}
      </div>
      {model.error.value && <p class="error" data-testid="group-error">{model.error.value}</p>}
      {model.allEnded.value && <Compare model={model} changes={app.changes} nameOf={nameOf} />}
    </div>
  );
}
