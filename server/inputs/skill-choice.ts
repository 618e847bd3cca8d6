/**
 * Which skills a run uses, told to the run: unknown ids and unusable skills become diagnostics, and the skills
 * that are used are named once. Shared by local runs and runs on a remote location (which stage them elsewhere).
 */
import { selectSkills } from "../skills/compose.ts";
import type { LoadedSkill, SkillLibrary } from "../skills/library.ts";
import type { RunInputNote } from "./run-inputs.ts";

/** The usable skills a run selected (explicit ids, then `@mentions`), in order; [] when none. */
export function chooseSkills(
  skills: SkillLibrary | undefined,
  request: { projectDir?: string; skillIds: readonly string[]; message: string; note: (note: RunInputNote) => void },
): LoadedSkill[] {
  if (!skills) return [];
  if (!request.skillIds.length && !request.message.includes("@")) return [];
  const selection = selectSkills(skills.list(request.projectDir), request.skillIds, request.message);
  for (const id of selection.unknownIds) request.note({ kind: "skill_unknown", message: `no skill '${id}'; it was not used`, detail: { skillId: id } });
  for (const skill of selection.unusable) {
    const why = skill.diagnostics.find((d) => d.severity === "error")?.message ?? "it is invalid";
    request.note({ kind: "skill_unusable", message: `skill '${skill.id}' was not used: ${why}`, detail: { skillId: skill.id } });
  }
  return selection.selected;
}

/** The diagnostic naming the skills a run uses. */
export function skillsUsedNote(skills: readonly LoadedSkill[]): RunInputNote {
  return { kind: "skills", message: `using skill${skills.length === 1 ? "" : "s"} ${skills.map((s) => s.id).join(", ")}`, detail: { skillIds: skills.map((s) => s.id) } };
}
