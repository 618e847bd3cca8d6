/**
 * Which skills a run uses, told to the run: unknown ids and unusable skills become diagnostics, and the skills
 * that are used are named once. Shared by local runs and runs on a remote location (which stage them elsewhere).
 */
import { selectSkills } from "../skills/compose.ts";
import type { LoadedSkill, ProjectSkills, SkillLibrary } from "../skills/library.ts";
import type { RunInputNote } from "./prepared-inputs.ts";

/** The usable skills a run selected (explicit ids, then `@mentions`), in order; [] when none. */
export function chooseSkills(
  skills: SkillLibrary | undefined,
  request: { project?: ProjectSkills; skillIds: readonly string[]; message: string; note: (note: RunInputNote) => void },
): LoadedSkill[] {
  if (!wantsSkills(skills, request)) return [];
  const selection = selectSkills(skills!.list(request.project), request.skillIds, request.message);
  for (const id of selection.unknownIds) request.note({ kind: "skill_unknown", message: `no skill '${id}'; it was not used`, detail: { skillId: id } });
  for (const skill of selection.unusable) {
    const why = skill.diagnostics.find((d) => d.severity === "error")?.message ?? "it is invalid";
    request.note({ kind: "skill_unusable", message: `skill '${skill.id}' was not used: ${why}`, detail: { skillId: skill.id } });
  }
  return selection.selected;
}

/** Whether a run could select any skill: explicit ids, or an `@` that may mention one. */
export function wantsSkills(skills: SkillLibrary | undefined, request: { skillIds: readonly string[]; message: string }): boolean {
  return !!skills && (request.skillIds.length > 0 || request.message.includes("@"));
}

/** The diagnostic naming the skills a run uses. */
export function skillsUsedNote(skills: readonly LoadedSkill[]): RunInputNote {
  return { kind: "skills", message: `using skill${skills.length === 1 ? "" : "s"} ${skills.map((s) => s.id).join(", ")}`, detail: { skillIds: skills.map((s) => s.id) } };
}
