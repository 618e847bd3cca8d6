/**
 * Which of a finished run's recorded file changes a file-writing tool call made: the run's change of that file, when
 * this call is the only one of the run that wrote or edited it (else the run's change is several calls' work and says
 * nothing of this one). Pure, so the tool card and its tests read the same answer.
 */
import type { FileChange } from "../../server/contracts/changes.ts";
import type { RunItem } from "../state/run-state.ts";

/** The change recorded for `toolPath` (absolute or project-relative): the longest changed path it names. */
export function changeForPath(changes: readonly FileChange[], toolPath: string): FileChange | undefined {
  const path = toolPath.replaceAll("\\", "/");
  let best: FileChange | undefined;
  for (const change of changes) {
    if ((path === change.path || path.endsWith(`/${change.path}`)) && (!best || change.path.length > best.path.length)) best = change;
  }
  return best;
}

/** How many calls of the run (its sub-agents' included) wrote or edited each changed file, by the change's path. */
export function writesPerChange(changes: readonly FileChange[], items: readonly RunItem[]): Map<string, number> {
  const counts = new Map<string, number>();
  const visit = (list: readonly RunItem[]) => {
    for (const item of list) {
      if (item.kind !== "tool") continue;
      if ((item.toolKind === "file_write" || item.toolKind === "file_edit") && item.path) {
        const change = changeForPath(changes, item.path);
        if (change) counts.set(change.path, (counts.get(change.path) ?? 0) + 1);
      }
      if (item.children) visit(item.children);
    }
  };
  visit(items);
  return counts;
}

/** What one run knows of its calls' file changes, once it has ended and its changes are loaded. */
export type RunWriteChanges = { changeOf(toolPath: string): FileChange | undefined };

export function runWriteChanges(changes: readonly FileChange[], items: readonly RunItem[]): RunWriteChanges {
  const writes = writesPerChange(changes, items);
  return {
    changeOf(toolPath) {
      const change = changeForPath(changes, toolPath);
      return change && writes.get(change.path) === 1 ? change : undefined;
    },
  };
}
