/**
 * A project's own skills (`.od/skills/` in its folder) as the skill library takes them: the folder itself on this
 * machine, where the library reads it; on any other, the skills read there by one script (remote/remote-skills.ts).
 */
import type { MachinePlace } from "../machines/machine.ts";
import { readRemoteProjectSkills } from "../remote/remote-skills.ts";
import type { ProjectSkills } from "./library.ts";

export async function projectSkillsOn({ machine, folder }: MachinePlace): Promise<ProjectSkills> {
  return machine.kind === "local" ? folder : { skills: await readRemoteProjectSkills(machine, folder) };
}
