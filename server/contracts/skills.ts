/**
 * Skills: a folder with a `SKILL.md` (YAML frontmatter + Markdown body) and optional side files. These schemas
 * are the wire shapes of `/api/skills` and the frontmatter rules od checks.
 */
import { z } from "./zod.ts";

/** Where a skill comes from; a later source shadows an earlier one with the same id. */
export const SkillSource = z.enum(["bundled", "user", "project"]);
export type SkillSource = z.infer<typeof SkillSource>;

/** The `od:` block of the frontmatter: what the skill makes and how the UI previews it. */
export const SkillOdBlock = z.looseObject({
  /** What the skill produces: prototype | deck | template | design-system | image | video | audio | report | … */
  mode: z.string().min(1),
  preview: z.looseObject({
    /** How the UI previews the output: `html` or `md` (others are shown as files). */
    type: z.string().min(1),
  }),
  /** A prompt that shows what the skill is for (the picker offers it). */
  example_prompt: z.string().min(1),
});

/** The frontmatter fields od relies on; anything else is kept but not checked. */
export const SkillFrontmatter = z.looseObject({
  name: z.string().min(1),
  description: z.string().min(1),
  /** Words or phrases that suggest the skill. */
  triggers: z.array(z.string()),
  od: SkillOdBlock,
});
export type SkillFrontmatter = z.infer<typeof SkillFrontmatter>;

/** A problem with a skill's files. `error` → the skill is listed but cannot be used; `warning` → usable with defaults. */
export const SkillDiagnostic = z.object({
  severity: z.enum(["error", "warning"]),
  /** Dotted frontmatter path (`od.preview.type`) or `SKILL.md`. */
  path: z.string(),
  message: z.string(),
});
export type SkillDiagnostic = z.infer<typeof SkillDiagnostic>;

/** A skill as `GET /api/skills` lists it. */
export const SkillSummary = z.object({
  /** The folder name; `@<id>` mentions it. */
  id: z.string(),
  name: z.string(),
  description: z.string(),
  triggers: z.array(z.string()),
  /** From `od.mode`; `general` when missing. */
  mode: z.string(),
  /** From `od.preview.type`; `md` when missing. */
  previewType: z.string(),
  examplePrompt: z.string().optional(),
  source: SkillSource,
  /** Absolute folder of the skill. */
  dir: z.string(),
  /** False when an `error` diagnostic makes the skill unusable. */
  usable: z.boolean(),
  diagnostics: z.array(SkillDiagnostic),
  /** Sources with the same id that this one hides. */
  shadows: z.array(SkillSource),
});
export type SkillSummary = z.infer<typeof SkillSummary>;

/** One file of a skill folder. */
export const SkillFile = z.object({ path: z.string(), size: z.number() });
export type SkillFile = z.infer<typeof SkillFile>;

/** `GET /api/skills/:id`: the summary plus the body and every file. */
export const SkillDetail = SkillSummary.extend({ body: z.string(), files: z.array(SkillFile) });
export type SkillDetail = z.infer<typeof SkillDetail>;

export const ListSkillsQuery = z.object({ projectId: z.string().min(1).optional() });

/** `POST /api/skills/import`: writes `<data dir>/skills/<slug(name)>/SKILL.md`. */
export const ImportSkillRequest = z.strictObject({
  name: z.string().trim().min(1).max(80),
  description: z.string().trim().max(1000).optional(),
  /** The Markdown instructions (without frontmatter). */
  body: z.string().trim().min(1).max(200_000),
  triggers: z.array(z.string().trim().min(1).max(80)).max(50).optional(),
  mode: z.string().trim().min(1).max(40).optional(),
  previewType: z.enum(["html", "md"]).optional(),
  examplePrompt: z.string().trim().min(1).max(2000).optional(),
  /** Replace a user skill with the same id instead of failing with 409. */
  replace: z.boolean().optional(),
});
export type ImportSkillRequest = z.infer<typeof ImportSkillRequest>;
