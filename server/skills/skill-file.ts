/**
 * Reads one SKILL.md: splits the `---` frontmatter from the Markdown body, parses it, and checks it against
 * SkillFrontmatter. Problems become diagnostics (never exceptions), so a broken skill still lists with its reason.
 */
import type * as SkillsContract from "../contracts/skills.ts";
import type { SkillDiagnostic } from "../contracts/skills.ts";
import { loadOnFirstUse } from "../platform/load-on-first-use.ts";
import { parseFrontmatterYaml, stringifyFrontmatterYaml, type YamlMap } from "./frontmatter-yaml.ts";

/** The frontmatter schema, built at the first SKILL.md read: a run that selects no skill never loads zod. */
const skillsContract = loadOnFirstUse<typeof SkillsContract>(import.meta.url, "../contracts/skills.ts", () => require("../contracts/skills.ts"));

/** What od reads out of a SKILL.md, with defaults filled in where fields are missing. */
export type SkillMeta = {
  name: string;
  description: string;
  triggers: string[];
  mode: string;
  previewType: string;
  examplePrompt?: string;
};

/** A frontmatter as parsed, and what its YAML or the schema found wrong with it: all that depends on its text alone. */
export type CheckedFrontmatter = {
  frontmatter: YamlMap;
  /** Why the text is not valid YAML (the frontmatter is then empty). */
  yamlError?: string;
  /** What SkillFrontmatter says of the parsed frontmatter. */
  issues: SkillDiagnostic[];
};

/** How a frontmatter's text is checked: `checkFrontmatter`, or a memory of earlier checks (checked-frontmatter.ts). */
export type FrontmatterCheck = (yaml: string) => CheckedFrontmatter;

export type ParsedSkillFile = {
  meta: SkillMeta;
  /** The frontmatter as parsed (empty when unreadable). */
  frontmatter: YamlMap;
  body: string;
  diagnostics: SkillDiagnostic[];
};

/** Fields whose absence still leaves a usable skill (defaults apply); the rest are errors. */
const WARNING_FIELDS = new Set(["triggers", "od", "od.mode", "od.preview", "od.preview.type", "od.example_prompt", "description"]);

/** Parses a frontmatter's text (the YAML package) and checks it against SkillFrontmatter (zod): both load on first use. */
export function checkFrontmatter(yaml: string): CheckedFrontmatter {
  const parsed = parseFrontmatterYaml(yaml, 2);
  if (!parsed.ok) return { frontmatter: {}, yamlError: `frontmatter is not valid YAML (line ${parsed.line}): ${parsed.error}`, issues: [] };
  const checked = skillsContract().SkillFrontmatter.safeParse(parsed.value);
  const issues: SkillDiagnostic[] = checked.success
    ? []
    : checked.error.issues.map((issue) => {
        const path = issue.path.map(String).join(".");
        return { severity: WARNING_FIELDS.has(path) ? "warning" : "error", path, message: issue.message.replace(/^Invalid input: /, "") };
      });
  return { frontmatter: parsed.value, issues };
}

export function parseSkillFile(text: string, folderName: string, check: FrontmatterCheck = checkFrontmatter): ParsedSkillFile {
  const diagnostics: SkillDiagnostic[] = [];
  const split = splitFrontmatter(text);
  let frontmatter: YamlMap = {};
  let issues: SkillDiagnostic[] = [];
  if (split.yaml === null) {
    diagnostics.push({ severity: "error", path: "SKILL.md", message: "SKILL.md has no YAML frontmatter (it must start with a '---' line)" });
  } else {
    const checked = check(split.yaml);
    frontmatter = checked.frontmatter;
    issues = checked.issues;
    if (checked.yamlError !== undefined) diagnostics.push({ severity: "error", path: "SKILL.md", message: checked.yamlError });
  }
  if (!split.body.trim()) diagnostics.push({ severity: "error", path: "SKILL.md", message: "the skill has no instructions after the frontmatter" });
  // The schema's word only counts for a file that is otherwise whole.
  if (diagnostics.length === 0) diagnostics.push(...issues);

  const od = asMap(frontmatter.od);
  const preview = asMap(od.preview);
  const name = asString(frontmatter.name) ?? folderName;
  const meta: SkillMeta = {
    name,
    description: asString(frontmatter.description) ?? "",
    triggers: Array.isArray(frontmatter.triggers) ? frontmatter.triggers.filter((t): t is string => typeof t === "string") : [],
    mode: asString(od.mode) ?? "general",
    previewType: asString(preview.type) ?? "md",
    ...(asString(od.example_prompt) ? { examplePrompt: asString(od.example_prompt)! } : {}),
  };
  return { meta, frontmatter, body: split.body, diagnostics };
}

/** `yaml` is null when the file does not open with a `---` line; the body is everything after the closing one. */
export function splitFrontmatter(text: string): { yaml: string | null; body: string } {
  const normalized = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  if (!/^---[ \t]*\n/.test(normalized)) return { yaml: null, body: normalized };
  const rest = normalized.slice(normalized.indexOf("\n") + 1);
  const close = /^(---|\.\.\.)[ \t]*$/m.exec(rest);
  if (!close) return { yaml: null, body: normalized };
  return { yaml: rest.slice(0, close.index), body: rest.slice(close.index + close[0].length).replace(/^\n/, "") };
}

/** A complete SKILL.md for the given fields (what `POST /api/skills/import` writes). */
export function renderSkillFile(fields: { name: string; description: string; triggers: string[]; mode: string; previewType: string; examplePrompt: string }, body: string): string {
  const frontmatter = stringifyFrontmatterYaml({
    name: fields.name,
    description: fields.description,
    triggers: fields.triggers,
    od: { mode: fields.mode, preview: { type: fields.previewType }, example_prompt: fields.examplePrompt },
  });
  return `---\n${frontmatter}\n---\n\n${body.trim()}\n`;
}

function asMap(value: unknown): YamlMap {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as YamlMap) : {};
}

function asString(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() ? value : undefined;
}
