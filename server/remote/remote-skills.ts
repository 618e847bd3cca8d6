/**
 * A remote project's own skills (`.od/skills/` in its folder, as projectSkillsDir has it locally), read where the
 * project lives with one command: each skill folder's name, its SKILL.md and its file list, as framed sections
 * (framed-sections.ts), so any byte of a name arrives as data. The local rules apply: folders whose name starts with
 * `.` are skipped, a SKILL.md over 1 MB makes the skill unusable, at most 500 files are listed. Nothing is read
 * through a symlink there (a skill folder or SKILL.md that is one is left out, and so are linked files).
 */
import { SKILL_ID_PATTERN } from "../contracts/skill-id.ts";
import { OdError } from "../errors.ts";
import { MAX_LISTED_FILES, MAX_SKILL_FILE_BYTES, skillFromText, skillIdFrom, type LoadedSkill } from "../skills/library.ts";
import { nulRecords, readSections } from "../machines/framed-sections.ts";
import type { Machine } from "../machines/machine.ts";
import { expectExitedOn } from "../machines/remote-exec.ts";
import { GNU_TOOLS_CHECK, GNU_TOOLS_MISSING_EXIT, gnuToolsMissingText } from "../machines/remote-scripts.ts";

const TIMEOUT_MS = 30_000;
const MAX_OUTPUT_BYTES = 32 * 1024 * 1024;
/** Where a project keeps its own skills, relative to its folder. */
export const REMOTE_PROJECT_SKILLS_DIR = ".od/skills";

/**
 * `$1` project folder, `$2` most files listed per skill, `$3` largest SKILL.md read. Four sections per skill: its
 * folder name, SKILL.md's size (empty when unreadable), SKILL.md (empty when larger than `$3`), its files as
 * `SIZE PATH` NUL-terminated records. Exit 3: no such folder; 4: no temp folder there; 6: no GNU tools there.
 */
const LIST_SCRIPT = String.raw`cd -- "$1" 2>/dev/null || exit 3
cd .od/skills 2>/dev/null || exit 0
${GNU_TOOLS_CHECK}
t=$(mktemp -d 2>/dev/null) || exit 4
trap 'rm -rf -- "$t"' EXIT
trap 'exit 1' HUP INT TERM PIPE
export LC_ALL=C
section() { printf '%s\0' "$(($(wc -c < "$1")))"; cat -- "$1"; }
for d in *; do
  [ -d "$d" ] && [ ! -L "$d" ] && [ -f "$d/SKILL.md" ] && [ ! -L "$d/SKILL.md" ] || continue
  printf '%s' "$d" > "$t/name"; section "$t/name"
  size=$({ wc -c < "$d/SKILL.md"; } 2>/dev/null | tr -d ' ')
  printf '%s' "$size" > "$t/size"; section "$t/size"
  : > "$t/text"
  [ -n "$size" ] && [ "$size" -le "$3" ] && { cat -- "$d/SKILL.md" > "$t/text"; } 2>/dev/null
  section "$t/text"
  (cd -- "$d" && find -P . -maxdepth 7 -type f -printf '%s %P\0' 2>/dev/null | head -z -n "$2") > "$t/files"
  section "$t/files"
done
exit 0`;

/** The project's own skills there, as the skill library loads local ones; an OdError when they cannot be read. */
export async function readRemoteProjectSkills(machine: Machine, folder: string): Promise<LoadedSkill[]> {
  const where = machine.label;
  const result = expectExitedOn(where, await machine.exec(LIST_SCRIPT, [folder, String(MAX_LISTED_FILES), String(MAX_SKILL_FILE_BYTES)], {
    timeoutMs: TIMEOUT_MS,
    maxBytes: MAX_OUTPUT_BYTES,
  }));
  if (result.code === 3) throw new OdError("not_found", "INVALID_PROJECT_PATH", `the project folder is missing on ${where}`);
  if (result.code === GNU_TOOLS_MISSING_EXIT) throw new OdError("machine_failed", "REMOTE_TOOLS_MISSING", gnuToolsMissingText("reading the project's skills", where));
  const sections = result.code === 0 ? readSections(result.stdout) : undefined;
  if (!sections || sections.length % 4 !== 0) {
    throw new OdError("machine_failed", "REMOTE_READ_FAILED", `could not read the project's skills on ${where}: ${result.stderr.trim() || `exit ${result.code}`}`);
  }
  return parseRemoteSkills(folder, sections);
}

/** The skills of LIST_SCRIPT's sections, ids and duplicates as readRoot has them. */
export function parseRemoteSkills(projectPath: string, sections: Uint8Array[]): LoadedSkill[] {
  const root = `${projectPath.replace(/\/+$/, "")}/${REMOTE_PROJECT_SKILLS_DIR}`;
  const skills: LoadedSkill[] = [];
  const seen = new Set<string>();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  for (let index = 0; index < sections.length; index += 4) {
    const [name, size, text] = sections.slice(index, index + 3).map(decode) as [string, string, string];
    const id = SKILL_ID_PATTERN.test(name) ? name : skillIdFrom(name);
    if (seen.has(id)) continue;
    seen.add(id);
    const readError = !/^\d+$/.test(size) ? "SKILL.md is unreadable" : Number(size) > MAX_SKILL_FILE_BYTES ? "SKILL.md is larger than 1 MB" : undefined;
    const listed = nulRecords(sections[index + 3]!).flatMap((record) => {
      const match = /^(\d+) (.+)$/s.exec(record);
      return match ? [{ path: match[2]!, size: Number(match[1]) }] : [];
    });
    const skill = skillFromText(`${root}/${name}`, id, "project", readError ? "" : text, readError);
    skills.push({ ...skill, remoteFiles: listed.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)) });
  }
  return skills;
}
