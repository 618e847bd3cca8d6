/** Writing small skill folders for the skills tests. */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** A complete, valid SKILL.md. */
export function skillText(name: string, body = `Instructions of ${name}.`, extra = ""): string {
  return `---
name: ${name}
description: The ${name} skill
triggers: [${name}]
od:
  mode: prototype
  preview:
    type: html
  example_prompt: Use ${name}${extra}
---
${body}
`;
}

/** Writes `<root>/<id>/SKILL.md` plus side files (relative path → content); returns the skill folder. */
export function writeSkill(root: string, id: string, options: { text?: string; files?: Record<string, string> } = {}): string {
  const dir = join(root, id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "SKILL.md"), options.text ?? skillText(id));
  for (const [rel, content] of Object.entries(options.files ?? {})) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
  return dir;
}
