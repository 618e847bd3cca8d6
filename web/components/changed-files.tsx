/** A finished run's changed files: one collapsible entry per file with its coloured unified diff. */
import type { FileChange } from "../../server/contracts/changes.ts";
import { useState } from "preact/hooks";
import { diffLines, type RunChangesModel } from "../state/run-changes.ts";
import { AskDialog, type Ask } from "./ask-dialog.tsx";
import { Disclosure } from "./disclosure.tsx";

const KIND_MARK: Record<FileChange["kind"], string> = { created: "A", modified: "M", deleted: "D" };
/** Open every file's diff at once only when there are few. */
export const CHANGES_OPEN_AT_MOST = 3;

/** One file's diff as a run recorded it (or why there is none). */
export function ChangeDiff({ change }: { change: FileChange }) {
  if (change.binary) return <p class="muted">Binary file: no diff shown.</p>;
  if (change.diff === null) return <p class="muted">Too large to keep a diff of.</p>;
  return (
    <pre class="diff" data-testid="diff">
      {diffLines(change.diff).map((line, i) => (
        <span key={i} class={`diff-${line.role}`}>
          {line.text}
          {"\n"}
        </span>
      ))}
      {change.omitted === "too-large" && <span class="diff-note">… diff cut: the change is larger than od shows</span>}
    </pre>
  );
}

export function ChangedFiles({ runId, model, onOpenFile }: { runId: string; model: RunChangesModel; onOpenFile?: (path: string) => void }) {
  const state = model.of(runId).value;
  if (state.kind === "loading") return null;
  if (state.kind === "error") return <p class="muted changes-error">Could not load this run's changes: {state.message}</p>;
  if (state.changes.length === 0) return null;
  const additions = state.changes.reduce((sum, c) => sum + c.additions, 0);
  const deletions = state.changes.reduce((sum, c) => sum + c.deletions, 0);
  return (
    <details class="changes" data-testid="changes" data-source={state.source} open>
      <summary>
        Changed files ({state.changes.length}) <span class="diff-add-count">+{additions}</span> <span class="diff-del-count">−{deletions}</span>
      </summary>
      <RevertChanges runId={runId} model={model} count={state.changes.length} />
      {state.changes.map((change) => (
        <Disclosure
          key={change.path}
          id={`change\n${change.path}`}
          class="change"
          data-testid="change"
          data-path={change.path}
          data-kind={change.kind}
          open={state.changes.length <= CHANGES_OPEN_AT_MOST}
          summary={
            <>
              <span class={`change-kind change-${change.kind}`} title={change.kind}>
                {KIND_MARK[change.kind]}
              </span>{" "}
              <code>{change.path}</code> <span class="diff-add-count">+{change.additions}</span> <span class="diff-del-count">−{change.deletions}</span>
            </>
          }
        >
          {() => (
            <>
              {/* Not inside the summary: a control inside another control is one a screen reader cannot reach. */}
              {onOpenFile && change.kind !== "deleted" && (
                <div class="change-actions">
                  <button type="button" class="link small" aria-label={`Open ${change.path}`} onClick={() => onOpenFile(change.path)}>
                    open
                  </button>
                </div>
              )}
              <ChangeDiff change={change} />
            </>
          )}
        </Disclosure>
      ))}
    </details>
  );
}

/** "Revert these changes", after a confirmation in the page; then what was put back, or why od refused. */
function RevertChanges({ runId, model, count }: { runId: string; model: RunChangesModel; count: number }) {
  const [ask, setAsk] = useState<Ask | null>(null);
  const state = model.revertOf(runId).value;
  const files = count === 1 ? "the file" : `the ${count} files`;
  return (
    <div class="change-actions revert-changes" data-testid="revert" data-state={state.kind}>
      {state.kind === "done" ? (
        <span class="muted" role="status">
          Reverted: {state.reverted.length === 1 ? "1 file is" : `${state.reverted.length} files are`} as before the run.
        </span>
      ) : (
        <button
          type="button"
          class="small"
          data-testid="revert-changes"
          disabled={state.kind === "working"}
          onClick={() =>
            setAsk({
              kind: "confirm",
              title: "Revert this run's changes?",
              message: `${files[0]!.toUpperCase()}${files.slice(1)} this run created, changed or deleted will be as they were before it (files it created are removed). od refuses if any was changed since.`,
              confirmLabel: "Revert",
              onDone: () => void model.revert(runId),
            })
          }
        >
          {state.kind === "working" ? "Reverting…" : "Revert these changes"}
        </button>
      )}
      {state.kind === "error" && (
        <p class="error" role="alert" data-testid="revert-error">
          {state.message}
        </p>
      )}
      <AskDialog ask={ask} onClose={() => setAsk(null)} />
    </div>
  );
}
