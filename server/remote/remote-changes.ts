/**
 * What a run changes in a remote project: the local tracker's interface, rules and saved shape
 * (server/projects/changes/tracker.ts), with each snapshot one script run over ssh or docker exec. Before the run,
 * git's view of the folder when it is in a work tree (dirty files' content kept), else a bounded walk (small files'
 * content kept); after it, the same view again plus the content needed for the diffs, which the local diff code
 * turns into changes. Nothing here fails a run: a snapshot that cannot be taken is a diagnostic, and the run
 * records no changes.
 */
import type { FileChange } from "../contracts/changes.ts";
import { isOdOwn, MAX_KEPT_FILE_BYTES, MAX_KEPT_TOTAL_BYTES, MAX_WALK_FILES, type ChangeTracker } from "../projects/changes/tracker.ts";
import { describeChange, type Content } from "../projects/changes/unified-diff.ts";
import { readSections } from "../machines/framed-sections.ts";
import { SNAPSHOT_AFTER_GIT_SCRIPT, SNAPSHOT_AFTER_WALK_SCRIPT, SNAPSHOT_BEFORE_SCRIPT } from "./remote-change-scripts.ts";
import type { ExecResult, Machine } from "../machines/machine.ts";
import { GNU_TOOLS_MISSING_EXIT } from "../machines/remote-scripts.ts";
import { listingStamps, readContents, readIndexContents, statusPaths } from "./remote-snapshot.ts";

const SNAPSHOT_TIMEOUT_MS = 60_000;
/** After the run, each content section (current files, index blobs) is cut here: past it, changes have no diff. */
const AFTER_SECTION_BYTES = 32 * 1024 * 1024;
/** `git status` of a huge work tree, as the local tracker allows it. */
const MAX_STATUS_BYTES = 64 * 1024 * 1024;

/** Runs one snapshot script there: its sections, or undefined (and a note saying why) when it failed. */
type TakeSnapshot = (script: string, stdin: Uint8Array | undefined, budget: number, sectionCount: (sections: Uint8Array[]) => number) => Promise<Uint8Array[] | undefined>;

/** Starts tracking `folder` on `machine`; `note` receives why a snapshot could not be taken. */
export async function trackRemoteChanges(machine: Machine, folder: string, note: (message: string) => void): Promise<ChangeTracker> {
  const where = machine.label;
  const take: TakeSnapshot = async (script, stdin, budget, sectionCount) => {
    const args = [folder, String(MAX_KEPT_FILE_BYTES + 1), String(budget), String(MAX_WALK_FILES)];
    const maxBytes = MAX_STATUS_BYTES + 2 * budget + 16 * 1024 * 1024;
    const result = await machine.exec(script, args, { timeoutMs: SNAPSHOT_TIMEOUT_MS, maxBytes, ...(stdin ? { stdin } : {}) });
    const sections = result.kind === "exited" && result.code === 0 ? readSections(result.stdout) : undefined;
    if (sections && sections.length === sectionCount(sections)) return sections;
    note(`could not snapshot the project folder on ${where} (${failure(result)}); this run's changes are not recorded`);
    return undefined;
  };
  const modeOf = (sections: Uint8Array[]) => new TextDecoder().decode(sections[0] ?? new Uint8Array());
  const before = await take(SNAPSHOT_BEFORE_SCRIPT, undefined, MAX_KEPT_TOTAL_BYTES, (sections) => (modeOf(sections) === "git" ? 5 : 4));
  if (!before) return { source: "walk", finish: async () => [] };
  return modeOf(before) === "git" ? gitTracker(take, before) : walkTracker(take, before);
}

function failure(result: ExecResult): string {
  if (result.kind === "timeout") return `no answer within ${SNAPSHOT_TIMEOUT_MS / 1000} s`;
  if (result.kind === "unreachable") return result.stderr || "unreachable";
  if (result.code === 3) return "the folder is missing";
  if (result.code === GNU_TOOLS_MISSING_EXIT) return "it needs GNU find, sed and coreutils there";
  return result.code === 0 ? "its output was cut or malformed" : result.stderr.trim().split("\n").at(-1) || `exit ${result.code}`;
}

/** Before: [mode, prefix, status, stat, tar]; after: [status, stat, tar, index, blobs]. Paths there are work-tree-relative. */
function gitTracker(take: TakeSnapshot, [, prefixSection, status, stat, tar]: Uint8Array[]): ChangeTracker {
  const prefix = new TextDecoder().decode(prefixSection).replace(/\n$/, "");
  const statusBefore = status!.slice();
  const dirtyBefore = [...statusPaths(statusBefore, prefix)].filter((path) => !isOdOwn(path));
  const kept = readContents(stat!, tar!);
  const before = new Map<string, Content>(dirtyBefore.map((path) => [path, kept.get(prefix + path) ?? { kind: "absent" }]));
  return {
    source: "git",
    async finish() {
      const after = await take(SNAPSHOT_AFTER_GIT_SCRIPT, statusBefore, AFTER_SECTION_BYTES, () => 5);
      if (!after) return [];
      const [statusAfter, statNow, tarNow, index, blobs] = after;
      const now = readContents(statNow!, tarNow!);
      const indexed = readIndexContents(index!, blobs!);
      const dirtyAfter = [...statusPaths(statusAfter!, prefix)].filter((path) => !isOdOwn(path));
      const changes: FileChange[] = [];
      for (const path of [...new Set([...dirtyBefore, ...dirtyAfter])].sort()) {
        // Clean before the run: its content then was the index's.
        const old = before.get(path) ?? indexed.get(prefix + path) ?? { kind: "absent" };
        const change = describeChange(path, old, now.get(prefix + path) ?? { kind: "absent" });
        if (change) changes.push(change);
      }
      return changes;
    },
  };
}

/** Before: [mode, list, stat, tar]; after: [list, stat, tar]. Paths are project-relative. */
function walkTracker(take: TakeSnapshot, [, list, stat, tar]: Uint8Array[]): ChangeTracker {
  const listBefore = list!.slice();
  const stampsBefore = listingStamps(listBefore);
  const kept = readContents(stat!, tar!);
  return {
    source: "walk",
    async finish() {
      const after = await take(SNAPSHOT_AFTER_WALK_SCRIPT, listBefore, AFTER_SECTION_BYTES, () => 3);
      if (!after) return [];
      const [listAfter, statNow, tarNow] = after;
      const stampsAfter = listingStamps(listAfter!);
      const now = readContents(statNow!, tarNow!);
      const changes: FileChange[] = [];
      const paths = [...new Set([...stampsBefore.keys(), ...stampsAfter.keys()])].filter((path) => !isOdOwn(path)).sort();
      for (const path of paths) {
        const was = stampsBefore.get(path);
        const is = stampsAfter.get(path);
        if (was !== undefined && was === is) continue;
        const old: Content = was !== undefined ? (kept.get(path) ?? { kind: "unknown" }) : { kind: "absent" };
        const change = describeChange(path, old, is !== undefined ? (now.get(path) ?? { kind: "absent" }) : { kind: "absent" });
        if (change) changes.push(change);
      }
      return changes;
    },
  };
}
