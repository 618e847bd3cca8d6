/**
 * Whether a staged copy of a skill is still what staging it again would make: every file of the source (its links
 * followed) at the same place in the copy, with the same bytes and permission bits, and nothing else in the copy,
 * whose folders and files are real ones (never links, no file with a second name). `stageSkill` keeps such a copy
 * instead of replacing it: the copy and the removal of the old one took a run that named a skill ~2.5 ms before its
 * agent started, each run.
 * Anything the agent changed, added or removed in the copy makes it differ, and it is replaced as before.
 * The trees are read synchronously, so only within `limits`: a larger tree, an unreadable entry or anything but files
 * and folders is "not the same", and staging copies it again (a link cycle in the source ends there too: the copy,
 * whose folders are real, is finite, and so are the limits).
 */
import { lstatSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** How much of the two trees is read before giving up on them (their entries, and the source's file bytes). */
export type SameTreeLimits = { entries: number; bytes: number };

/** A skill of SKILL.md and its references is a few files of a few KB; one with assets is copied as it always was. */
export const SAME_TREE_LIMITS: SameTreeLimits = { entries: 256, bytes: 1024 * 1024 };

export function isSameTree(source: string, copy: string, limits: SameTreeLimits = SAME_TREE_LIMITS): boolean {
  const left = { ...limits };
  try {
    return lstatSync(copy).isDirectory() && sameFolder(source, copy, left);
  } catch {
    return false;
  }
}

function sameFolder(source: string, copy: string, left: SameTreeLimits): boolean {
  const names = readdirSync(source);
  left.entries -= names.length;
  if (left.entries < 0 || readdirSync(copy).length !== names.length) return false;
  for (const name of names) {
    const from = statSync(join(source, name));
    const to = lstatSync(join(copy, name), { throwIfNoEntry: false });
    if (!to) return false;
    if (from.isDirectory()) {
      if (!to.isDirectory() || !sameFolder(join(source, name), join(copy, name), left)) return false;
      continue;
    }
    // A copy's file has no other name: one hard-linked to the source (or anywhere) would carry an edit out of the copy.
    if (!from.isFile() || !to.isFile() || to.nlink !== 1 || from.size !== to.size || (from.mode & 0o7777) !== (to.mode & 0o7777)) return false;
    left.bytes -= from.size;
    if (left.bytes < 0 || !readFileSync(join(source, name)).equals(readFileSync(join(copy, name)))) return false;
  }
  return true;
}
