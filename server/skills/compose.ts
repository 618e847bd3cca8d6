/**
 * Which skills a run uses (explicit `skillIds` plus `@skill` mentions in the message) and the system preamble that
 * carries their instructions. SKILL.md bodies are inlined; side files are not — the preamble says where the staged
 * copy is (cwd-relative first, absolute source as fallback) and which side files the body refers to. Pure.
 */
import type { LoadedSkill } from "./library.ts";

export type SkillSelection = {
  /** In selection order (explicit ids first, then mentions), without duplicates. */
  selected: LoadedSkill[];
  /** Explicit ids that match no skill. */
  unknownIds: string[];
  /** Requested skills that cannot be used (broken SKILL.md). */
  unusable: LoadedSkill[];
};

/** `@name` tokens not preceded by a word character (so `me@example.com` is not one); trailing `.`/`-` dropped. */
export function skillMentions(message: string): string[] {
  const names: string[] = [];
  for (const match of message.matchAll(/(?<![\w@/.])@([A-Za-z0-9][A-Za-z0-9._-]*)/g)) {
    names.push(match[1]!.replace(/[._-]+$/, ""));
  }
  return names;
}

/** Resolves ids and mentions against the visible skills. Unknown mentions are plain text and ignored. */
export function selectSkills(skills: LoadedSkill[], skillIds: readonly string[], message: string): SkillSelection {
  const selected: LoadedSkill[] = [];
  const unusable: LoadedSkill[] = [];
  const unknownIds: string[] = [];
  const find = (token: string) => {
    const lower = token.toLowerCase();
    return skills.find((s) => s.id === lower) ?? skills.find((s) => s.name.toLowerCase() === lower);
  };
  const take = (skill: LoadedSkill) => {
    if (selected.includes(skill) || unusable.includes(skill)) return;
    (skill.usable ? selected : unusable).push(skill);
  };
  for (const id of skillIds) {
    const skill = find(id);
    if (skill) take(skill);
    else if (!unknownIds.includes(id)) unknownIds.push(id);
  }
  for (const mention of skillMentions(message)) {
    const skill = find(mention);
    if (skill) take(skill);
  }
  return { selected, unknownIds, unusable };
}

/** Side files (relative paths) that the body mentions by path. */
export function referencedSideFiles(body: string, files: readonly string[]): string[] {
  return files.filter((file) => file !== "SKILL.md" && body.includes(file));
}

/** One selected skill as composition sees it. */
export type ComposedSkill = {
  skill: LoadedSkill;
  /** Relative paths of every file in the skill folder. */
  files: readonly string[];
  /** cwd-relative staged folder, when staging worked. */
  stagedPath?: string;
  /**
   * Absolute staged folder on another machine (a remote run): the only copy the agent can read, so no fallback to
   * the source folder (a path on this machine) is offered.
   */
  remotePath?: string;
};

/** The note placed before a skill's body when its folder has side files; empty otherwise. */
export function skillRootNote(entry: ComposedSkill): string {
  const sideFiles = entry.files.filter((f) => f !== "SKILL.md");
  if (sideFiles.length === 0) return "";
  const where = entry.remotePath
    ? `This skill's folder is copied to \`${entry.remotePath}/\`.`
    : entry.stagedPath
      ? `This skill's folder is copied to \`${entry.stagedPath}/\` (relative to your working directory). If that path is missing, read the files from \`${entry.skill.dir}\`.`
      : `This skill's folder is at \`${entry.skill.dir}\`.`;
  const referenced = referencedSideFiles(entry.skill.body, sideFiles);
  const which = referenced.length
    ? ` The instructions below refer to ${referenced.map((f) => `\`${f}\``).join(", ")}: open them from that folder when a step needs them (they are not included here).`
    : ` It also holds ${sideFiles.length} supporting file${sideFiles.length === 1 ? "" : "s"} you can read when useful.`;
  return `${where}${which}`;
}

/** The system preamble for the selected skills ("" when none). */
export function composeSkillsPreamble(entries: readonly ComposedSkill[]): string {
  if (entries.length === 0) return "";
  const sections = entries.map((entry) => {
    const note = skillRootNote(entry);
    return [`## Skill: ${entry.skill.name}`, note, entry.skill.body.trim()].filter(Boolean).join("\n\n");
  });
  const intro =
    entries.length === 1
      ? "The user chose the skill below for this request. Follow its instructions; where they conflict with the user's explicit request, the request wins."
      : "The user chose the skills below for this request. Follow their instructions; where they conflict with the user's explicit request, the request wins.";
  return [`# Skills\n\n${intro}`, ...sections].join("\n\n");
}
