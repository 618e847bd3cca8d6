/**
 * The skills a user can pick: bundled ones, shadowed by the user's own (`<data dir>/skills/`), shadowed in turn by
 * a project's `.od/skills/`. Read from disk on every call (a handful of small files), so edits show up at once.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { SKILL_ID_PATTERN } from "../contracts/skill-id.ts";
import type { ImportSkillRequest, SkillDetail, SkillFile, SkillSource, SkillSummary } from "../contracts/skills.ts";
import type { CheckedFrontmatters } from "./checked-frontmatter.ts";
import { checkFrontmatter, parseSkillFile, renderSkillFile, type FrontmatterCheck } from "./skill-file.ts";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../private-data-dir.ts";

/** A skill with its instructions, as composition needs it. */
export type LoadedSkill = SkillSummary & {
  body: string;
  /**
   * Set for a skill that lives on another machine (a remote project's own, server/remote/remote-skills.ts): its files
   * as listed there. Its `dir` is its folder there.
   */
  remoteFiles?: SkillFile[];
};

/** A project's own skills: read from its local folder, or already read where the project lives (another machine). */
export type ProjectSkills = string | { skills: LoadedSkill[] };

export type SkillRoots = {
  /** Folder of the bundled skills (a function: the binary extracts them on first use). */
  bundled: () => string | undefined;
  /** `<data dir>/skills`. */
  user: string;
  /** Frontmatters checked before (the data dir's): a listing parses only the ones it has not seen. */
  checked?: CheckedFrontmatters;
};

export const MAX_SKILL_FILE_BYTES = 1024 * 1024;
export const MAX_LISTED_FILES = 500;

/** Where a project keeps its own skills. */
export function projectSkillsDir(projectDir: string): string {
  return join(projectDir, ".od", "skills");
}

/** A folder-name-safe skill id from a display name (`"Landing Page!"` → `landing-page`). */
export function skillIdFrom(name: string): string {
  const slug = name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^[-._]+|[-._]+$/g, "")
    .slice(0, 80);
  return slug || "skill";
}

export class SkillError extends Error {
  override name = "SkillError";
  constructor(
    readonly code: "SKILL_NOT_FOUND" | "SKILL_READ_ONLY" | "SKILL_EXISTS",
    message: string,
  ) {
    super(message);
  }
}

export class SkillLibrary {
  constructor(private readonly roots: SkillRoots) {}

  /**
   * Every visible skill, shadowing applied, sorted by id. The project's own skills are read from `projectDir`, or
   * given as already read (a project on another machine).
   */
  list(project?: ProjectSkills): LoadedSkill[] {
    const byId = new Map<string, LoadedSkill>();
    for (const skills of this.#layers(project)) {
      for (const skill of skills) {
        const hidden = byId.get(skill.id);
        byId.set(skill.id, hidden ? { ...skill, shadows: [...hidden.shadows, hidden.source] } : skill);
      }
    }
    this.roots.checked?.save();
    return [...byId.values()].sort((a, b) => a.id.localeCompare(b.id));
  }

  get(id: string, project?: ProjectSkills): LoadedSkill | undefined {
    return this.list(project).find((skill) => skill.id === id);
  }

  /** The skill with its body and file list. */
  detail(id: string, project?: ProjectSkills): SkillDetail | undefined {
    const skill = this.get(id, project);
    if (!skill) return undefined;
    const { remoteFiles, ...rest } = skill;
    return { ...rest, files: remoteFiles ?? listFiles(skill.dir) };
  }

  /** Writes a user skill; 409-style error when one exists and `replace` is not set. */
  importSkill(request: ImportSkillRequest): LoadedSkill {
    const id = skillIdFrom(request.name);
    const dir = join(this.roots.user, id);
    if (existsSync(dir) && !request.replace) throw new SkillError("SKILL_EXISTS", `a user skill '${id}' already exists (send replace: true to overwrite it)`);
    const description = request.description ?? "";
    const text = renderSkillFile(
      {
        name: id,
        description,
        triggers: request.triggers ?? [],
        mode: request.mode ?? "custom",
        previewType: request.previewType ?? "md",
        examplePrompt: request.examplePrompt ?? (description || `Use the ${id} skill`),
      },
      request.body,
    );
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    // Write then rename, so a reader never sees half a SKILL.md.
    const temp = join(dir, `.SKILL.md.${Date.now()}.tmp`);
    writeFileSync(temp, text, { mode: PRIVATE_FILE_MODE });
    renameSync(temp, join(dir, "SKILL.md"));
    const skill = readRoot(this.roots.user, "user", this.#check).find((s) => s.id === id);
    if (!skill) throw new Error(`imported skill ${id} could not be read back`);
    return skill;
  }

  /** Deletes a user skill (a bundled one it shadowed becomes visible again). */
  deleteUserSkill(id: string): void {
    const userSkill = readRoot(this.roots.user, "user", this.#check).find((s) => s.id === id);
    if (userSkill) {
      rmSync(userSkill.dir, { recursive: true, force: true });
      return;
    }
    const other = this.list().find((s) => s.id === id);
    if (other) throw new SkillError("SKILL_READ_ONLY", `'${id}' is a ${other.source} skill; only your own skills can be deleted`);
    throw new SkillError("SKILL_NOT_FOUND", `no skill '${id}'`);
  }

  get #check(): FrontmatterCheck {
    return this.roots.checked?.check ?? checkFrontmatter;
  }

  /** Bundled, then the user's, then the project's: each layer shadows the ones before it. */
  *#layers(project?: ProjectSkills): Iterable<LoadedSkill[]> {
    const bundled = this.roots.bundled();
    if (bundled) yield readRoot(bundled, "bundled", this.#check);
    yield readRoot(this.roots.user, "user", this.#check);
    if (typeof project === "string") yield readRoot(projectSkillsDir(project), "project", this.#check);
    else if (project) yield project.skills;
  }
}

/** Skills in one root folder: each sub-folder with a SKILL.md. Unreadable entries are skipped. */
export function readRoot(root: string, source: SkillSource, check: FrontmatterCheck = checkFrontmatter): LoadedSkill[] {
  let entries: string[];
  try {
    entries = readdirSync(root).sort();
  } catch {
    return [];
  }
  const skills: LoadedSkill[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    if (entry.startsWith(".")) continue;
    const dir = resolve(root, entry);
    const file = join(dir, "SKILL.md");
    const stat = statSync(file, { throwIfNoEntry: false });
    if (!stat?.isFile()) continue;
    const id = SKILL_ID_PATTERN.test(entry) ? entry : skillIdFrom(entry);
    if (seen.has(id)) continue;
    seen.add(id);
    skills.push(loadSkill(dir, id, source, stat.size, check));
  }
  return skills;
}

function loadSkill(dir: string, id: string, source: SkillSource, size: number, check: FrontmatterCheck): LoadedSkill {
  let text = "";
  let readError: string | undefined;
  if (size > MAX_SKILL_FILE_BYTES) readError = "SKILL.md is larger than 1 MB";
  else {
    try {
      text = readFileSync(join(dir, "SKILL.md"), "utf8");
    } catch (error) {
      readError = `SKILL.md is unreadable: ${(error as Error).message}`;
    }
  }
  return skillFromText(dir, id, source, text, readError, check);
}

/** A skill from its SKILL.md text, or from why that could not be read (the skill is then listed, unusable). */
export function skillFromText(dir: string, id: string, source: SkillSource, text: string, readError?: string, check: FrontmatterCheck = checkFrontmatter): LoadedSkill {
  const parsed = parseSkillFile(text, id, check);
  const diagnostics = readError ? [{ severity: "error" as const, path: "SKILL.md", message: readError }] : parsed.diagnostics;
  if (!readError && parsed.meta.name !== id && typeof parsed.frontmatter.name === "string") {
    diagnostics.push({ severity: "warning", path: "name", message: `name '${parsed.meta.name}' differs from the folder name; the skill's id is '${id}'` });
  }
  return {
    id,
    name: parsed.meta.name,
    description: parsed.meta.description,
    triggers: parsed.meta.triggers,
    mode: parsed.meta.mode,
    previewType: parsed.meta.previewType,
    ...(parsed.meta.examplePrompt ? { examplePrompt: parsed.meta.examplePrompt } : {}),
    source,
    dir,
    usable: !diagnostics.some((d) => d.severity === "error"),
    diagnostics,
    shadows: [],
    body: parsed.body,
  };
}

/** Files of a skill folder, relative with `/`, symlinks followed, bounded. */
export function listFiles(dir: string): { path: string; size: number }[] {
  const files: { path: string; size: number }[] = [];
  const walk = (abs: string, rel: string, depth: number) => {
    if (depth > 6 || files.length >= MAX_LISTED_FILES) return;
    let names: string[];
    try {
      names = readdirSync(abs).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (files.length >= MAX_LISTED_FILES) return;
      const stat = statSync(join(abs, name), { throwIfNoEntry: false });
      const relPath = rel ? `${rel}/${name}` : name;
      if (stat?.isDirectory()) walk(join(abs, name), relPath, depth + 1);
      else if (stat?.isFile()) files.push({ path: relPath, size: stat.size });
    }
  };
  walk(dir, "", 0);
  return files;
}
