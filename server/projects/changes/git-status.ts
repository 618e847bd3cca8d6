/** `git status --porcelain=v1 -z` output → the paths it names (renames and copies give both sides). Pure. */

export type StatusEntry = { path: string; index: string; worktree: string };

export function parsePorcelainZ(output: string): StatusEntry[] {
  const entries: StatusEntry[] = [];
  const fields = output.split("\0");
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    if (field.length < 4) continue;
    const index = field[0]!;
    const worktree = field[1]!;
    entries.push({ path: field.slice(3), index, worktree });
    // A rename or copy names its source in the next field: it changed too (it is gone, or its content moved).
    if (index === "R" || index === "C") {
      const from = fields[++i];
      if (from) entries.push({ path: from, index: "D", worktree: " " });
    }
  }
  return entries;
}
