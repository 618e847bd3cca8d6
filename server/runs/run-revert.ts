/**
 * Reverting a finished run's changes: every file it created, changed or deleted is put back as it was before the run
 * (a file it created is removed), from the diff od recorded of it. Only all at once, and only when every one of them is
 * still exactly as the run left it (the SHA-256 of its text then, or still absent): a file changed since, by the person
 * or a later run, is named in a 409 `REVERT_CONFLICT` and nothing is written. The same on every machine: files are
 * read and written through the machine, removed by a script there.
 */
import type { FileChange, RevertRunResponse } from "../contracts/changes.ts";
import { OdError } from "../errors.ts";
import type { Machine } from "../machines/machine.ts";
import { placeOf } from "../machines/machine-of.ts";
import type { RemoteContext } from "../machines/remote-exec.ts";
import type { Store } from "../store/store.ts";
import { projectFolderIn } from "../worktrees/worktree-service.ts";
import { staysInside } from "../machines/folder-paths.ts";
import { contentOf, textBefore, textSha256, type Content } from "../projects/changes/unified-diff.ts";

/** What reverting one file does. */
export type RevertStep = { path: string; action: "write"; text: string } | { path: string; action: "remove" };
export type RevertRefusal = { path: string; reason: string };

/** Larger than any file od keeps a whole diff of (MAX_KEPT_FILE_BYTES), with room. */
const MAX_READ_BYTES = 2 * 1024 * 1024;

/**
 * The steps that put `changes` back, given what each file holds now; or why a file cannot be put back. Pure: the
 * route's tests and its executor read the same answer.
 */
export function planRevert(changes: readonly FileChange[], now: ReadonlyMap<string, Content>): { steps: RevertStep[]; refused: RevertRefusal[] } {
  const steps: RevertStep[] = [];
  const refused: RevertRefusal[] = [];
  for (const change of changes) {
    const current = now.get(change.path) ?? { kind: "unknown" };
    const refuse = (reason: string) => refused.push({ path: change.path, reason });
    if (change.binary) {
      refuse("binary: od keeps no diff of it");
      continue;
    }
    if (change.diff === null || change.omitted) {
      refuse("too large: od kept no whole diff of it");
      continue;
    }
    if (change.kind === "deleted") {
      if (current.kind !== "absent") {
        refuse("it exists again since the run deleted it");
        continue;
      }
    } else if (!change.afterSha256) {
      refuse("recorded before od kept what a run left in its files");
      continue;
    } else if (current.kind !== "text" || textSha256(current.text) !== change.afterSha256) {
      refuse(current.kind === "absent" ? "it was removed since the run" : "it changed since the run");
      continue;
    }
    if (change.kind === "created") {
      steps.push({ path: change.path, action: "remove" });
      continue;
    }
    const before = textBefore(change, current.kind === "text" ? current.text : "");
    if (before === undefined) refuse("its recorded diff does not apply");
    else steps.push({ path: change.path, action: "write", text: before });
  }
  return { steps, refused };
}

/** What each changed file holds now in `folder` on `machine`. */
async function currentContents(machine: Machine, folder: string, changes: readonly FileChange[]): Promise<Map<string, Content>> {
  const now = new Map<string, Content>();
  for (const change of changes) {
    try {
      now.set(change.path, contentOf(await machine.readFile(folder, change.path, MAX_READ_BYTES)));
    } catch (error) {
      now.set(change.path, error instanceof OdError && error.code === "FILE_NOT_FOUND" ? { kind: "absent" } : { kind: "unknown" });
    }
  }
  return now;
}

/** Puts `changes` back in `folder` on `machine`, all of them or none (409 REVERT_CONFLICT naming the files). */
export async function revertChanges(machine: Machine, folder: string, changes: readonly FileChange[]): Promise<string[]> {
  const { steps, refused } = planRevert(changes, await currentContents(machine, folder, changes));
  if (refused.length) {
    const detail = refused.map((r) => `${r.path} (${r.reason})`).join(", ");
    throw new OdError("conflict", "REVERT_CONFLICT", `nothing was reverted: ${detail}`, undefined, refused.map((r) => r.path));
  }
  const encoder = new TextEncoder();
  for (const step of steps) {
    if (!staysInside(step.path)) throw new OdError("invalid", "REVERT_FAILED", `${step.path} is not inside the project`);
    if (step.action === "write") await run(machine, WRITE_SCRIPT, folder, step.path, encoder.encode(step.text));
    else await run(machine, REMOVE_SCRIPT, folder, step.path);
  }
  return steps.map((step) => step.path);
}

/**
 * In the project's folder there (`$1`), the file `$2` written in place (`cat >`), as an editor saves: it keeps its
 * mode, owner and links; a file the run deleted is made again, in folders made as needed.
 */
const WRITE_SCRIPT = 'cd -- "$1" && mkdir -p -- "$(dirname -- "$2")" && cat > "$2"';
const REMOVE_SCRIPT = 'cd -- "$1" && rm -f -- "$2"';
const STEP_TIMEOUT_MS = 30_000;

async function run(machine: Machine, script: string, folder: string, file: string, stdin?: Uint8Array): Promise<void> {
  const result = await machine.exec(script, [folder, file], { timeoutMs: STEP_TIMEOUT_MS, ...(stdin ? { stdin } : {}) });
  if (result.kind === "timeout") throw new OdError("machine_timeout", "REVERT_FAILED", `${machine.label} did not answer while reverting ${file}`);
  if (result.kind !== "exited" || result.code !== 0) throw new OdError("machine_failed", "REVERT_FAILED", `could not revert ${file} on ${machine.label}: ${result.stderr.trim() || "it failed"}`);
}

export type RunReverterDeps = { store: Store; remote: RemoteContext };

/** `POST /api/runs/:id/revert`: a finished run's changes put back where it worked (its project, or its worktree). */
export class RunReverter {
  constructor(private readonly deps: RunReverterDeps) {}

  async revert(runId: string): Promise<RevertRunResponse> {
    const { store } = this.deps;
    const run = store.runs.get(runId);
    if (!run) throw new OdError("not_found", "NOT_FOUND", `no run ${runId}`);
    const project = store.projects.get(run.projectId);
    if (!project) throw new OdError("not_found", "PROJECT_NOT_FOUND", `no project ${run.projectId}`);
    const { machine, folder: projectFolder } = placeOf(project.path, this.deps.remote);
    let folder = projectFolder;
    // Runs working in the same folder: the run itself, and any other (of its worktree's conversation, or of the checkout).
    let sharing = store.runs.list({ projectId: project.id, status: "active" }).filter((other) => other.isolation !== "worktree");
    if (run.isolation === "worktree") {
      const worktree = store.worktrees.ofConversation(run.conversationId);
      if (!worktree || worktree.state === "discarded") throw new OdError("conflict", "WORKTREE_DISCARDED", `the worktree run ${runId} worked in is gone: there is nothing to revert there`);
      folder = projectFolderIn(worktree);
      sharing = store.runs.list({ conversationId: run.conversationId, status: "active" });
    }
    if (sharing.length) throw new OdError("conflict", "RUN_IN_PROGRESS", "a run is working in this folder; wait for it to end or cancel it, then revert");
    const { changes, source } = store.runChanges.list(runId);
    if (source === null) throw new OdError("conflict", "NO_RECORDED_CHANGES", `od recorded no changes of run ${runId} (it is still going, or it ran before od recorded them)`);
    return { reverted: await revertChanges(machine, folder, changes) };
  }
}
