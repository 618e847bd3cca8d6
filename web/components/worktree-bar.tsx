/** Above the composer of a conversation whose runs work in a worktree: its branch, and Apply or Discard. */
import type { ConversationWorktreeModel } from "../state/conversation-worktree.ts";

export function WorktreeBar({ model }: { model: ConversationWorktreeModel }) {
  const current = model.current.value;
  if (!current) return null;
  const { worktree, running } = current;
  const carried = worktree.carriedPaths ? ` (${worktree.carriedPaths} uncommitted path${worktree.carriedPaths === 1 ? "" : "s"} of your checkout carried over)` : "";
  const disabled = model.busy.value || running;
  return (
    <div class="worktree-bar" data-testid="worktree-bar" data-state={worktree.state} role="region" aria-label="This conversation's worktree">
      <span>
        Works in its own worktree, branch <code title={worktree.folder}>{worktree.branch}</code>
        {carried}
        {worktree.state === "applied" && <strong class="ok-text"> · applied to your checkout</strong>}
        {worktree.state === "discarded" && <strong> · discarded</strong>}
      </span>
      <span class="spacer" />
      {worktree.state !== "discarded" && (
        <>
          <button type="button" class="primary" data-testid="worktree-apply" disabled={disabled} title="Bring its changes into your checkout as uncommitted changes" onClick={() => void model.apply()}>
            Apply
          </button>
          <button type="button" class="ghost" data-testid="worktree-discard" disabled={disabled} title="Remove the worktree and its branch" onClick={() => void model.discard()}>
            Discard
          </button>
        </>
      )}
      {model.error.value && <p class="error" data-testid="worktree-error">{model.error.value}</p>}
    </div>
  );
}
