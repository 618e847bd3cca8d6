/**
 * Staging: each selected skill is copied into `<cwd>/.od-skills/<basename>-<hash>/` so the agent can read its side
 * files with a cwd-relative path, whatever folders its CLI lets it see. The copy is real and dereferenced (never a
 * link), so a tool that edits the staged tree cannot change the source skill, and every run gets it as the skill is:
 * a copy an earlier run left exactly as staging would make it now is kept (same-tree.ts), any other is replaced.
 * Non-throwing: a failure is a reason, and the run goes on with the absolute source path as the fallback.
 */
import { lstatSync, mkdirSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { sha256 } from "../node-crypto.ts";
import { copyTreeDereferenced, nodeCopyTree, type TreeCopier } from "./copy-tree.ts";
import { isSameTree } from "./same-tree.ts";

/** The folder under the project that holds staged skills. */
export const STAGING_DIR = ".od-skills";

export type StageResult =
  | { staged: true; /** cwd-relative, `/` separators */ relPath: string; absPath: string; via: "primary" | "stream" | "kept" }
  | { staged: false; code: "staging-dir-not-a-folder" | "copy-failed"; reason: string };

/** `<basename>-<first 10 hex of sha256(resolved source path with '/' separators)>`. */
export function stagingFolderName(sourceDir: string): string {
  const resolved = resolve(sourceDir).replaceAll("\\", "/");
  const hash = sha256().update(resolved).digest("hex").slice(0, 10);
  return `${basename(resolved)}-${hash}`;
}

export async function stageSkill(sourceDir: string, cwd: string, copy: TreeCopier = nodeCopyTree): Promise<StageResult> {
  const stagingRoot = join(cwd, STAGING_DIR);
  const existing = lstatSync(stagingRoot, { throwIfNoEntry: false });
  if (existing && !existing.isDirectory()) {
    return { staged: false, code: "staging-dir-not-a-folder", reason: `${STAGING_DIR} exists in the project but is not a folder; skills were not staged` };
  }
  const name = stagingFolderName(sourceDir);
  const target = join(stagingRoot, name);
  const relPath = `${STAGING_DIR}/${name}`;
  if (existing && isSameTree(sourceDir, target)) return { staged: true, relPath, absPath: target, via: "kept" };
  // Fetched, not imported: only a run that stages skills pays for loading node:fs/promises (see copy-tree.ts).
  const { rename, rm } = process.getBuiltinModule("node:fs/promises");
  try {
    if (!existing) {
      mkdirSync(stagingRoot, { recursive: true });
      // Staged copies are od's scratch space, not project files.
      writeFileSync(join(stagingRoot, ".gitignore"), "*\n");
    }
    const temp = join(stagingRoot, `.${name}.${crypto.randomUUID().slice(0, 8)}.tmp`);
    let via: "primary" | "stream";
    try {
      via = await copyTreeDereferenced(sourceDir, temp, copy);
    } catch (error) {
      await rm(temp, { recursive: true, force: true });
      throw error;
    }
    // A previous copy (or a legacy link, removed as a link) gives way to the fresh one.
    await rm(target, { recursive: true, force: true });
    await rename(temp, target);
    return { staged: true, relPath, absPath: target, via };
  } catch (error) {
    return { staged: false, code: "copy-failed", reason: `could not stage ${basename(sourceDir)}: ${(error as Error).message}` };
  }
}
