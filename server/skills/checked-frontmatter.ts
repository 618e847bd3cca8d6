/**
 * SKILL.md frontmatters as they were parsed and checked before, kept in the data dir (`skills-cache.json`) with their
 * text. A run that used a skill listed every skill to find it, and parsed each one's frontmatter: the yaml package and
 * zod loaded, and the parse ran in the interpreter (od starts with a reluctant JIT), ~12 ms before its agent started
 * for the three bundled skills. A frontmatter whose exact text was checked before is now taken from here; any other
 * text is checked, and kept. Each kept entry carries a checksum of itself: one edited by hand is dropped, not
 * believed. Bump FRONTMATTER_CHECK_FORMAT with any change to how a frontmatter is parsed or checked (skill-file.ts,
 * frontmatter-yaml.ts, SkillFrontmatter, the yaml package): tests/skills/checked-frontmatter.test.ts pins it to the
 * schema and the package's version, and fails until it is.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { seal, unseal, type Sealed } from "../platform/text-checksum.ts";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../private-data-dir.ts";
import { checkFrontmatter, type CheckedFrontmatter } from "./skill-file.ts";

export const FRONTMATTER_CHECK_FORMAT = 1;

/** The most frontmatters kept: the newest checked. */
const MAX_KEPT = 200;

type KeptEntry = { yaml: string; checked: CheckedFrontmatter };
type KeptFile = { format: number; entries: Sealed[] };

export class CheckedFrontmatters {
  readonly #file: string | undefined;
  #kept: Map<string, CheckedFrontmatter> | undefined;
  #changed = false;

  /** `file`: where the checks are kept across processes; none keeps them for this process only. */
  constructor(file?: string) {
    this.#file = file;
  }

  /** The frontmatter of `yaml`, as checked before or checked now. */
  readonly check = (yaml: string): CheckedFrontmatter => {
    const kept = this.#entries();
    const known = kept.get(yaml);
    if (known) return known;
    const checked = checkFrontmatter(yaml);
    kept.set(yaml, checked);
    this.#changed = true;
    return checked;
  };

  /** Writes what was checked since the last save (a listing's new frontmatters, at once). */
  save(): void {
    if (!this.#changed || !this.#file || !this.#kept) return;
    this.#changed = false;
    const entries = [...this.#kept].slice(-MAX_KEPT).map(([yaml, checked]) => seal({ yaml, checked } satisfies KeptEntry));
    const temp = `${this.#file}.${process.pid}.tmp`;
    try {
      mkdirSync(dirname(this.#file), { recursive: true, mode: PRIVATE_DIR_MODE });
      writeFileSync(temp, JSON.stringify({ format: FRONTMATTER_CHECK_FORMAT, entries } satisfies KeptFile), { mode: PRIVATE_FILE_MODE });
      renameSync(temp, this.#file);
    } catch {
      // A read-only data dir: frontmatters are checked again next time.
    }
  }

  #entries(): Map<string, CheckedFrontmatter> {
    if (this.#kept) return this.#kept;
    this.#kept = new Map();
    for (const entry of this.#read()) this.#kept.set(entry.yaml, entry.checked);
    return this.#kept;
  }

  #read(): KeptEntry[] {
    if (!this.#file) return [];
    try {
      const file = JSON.parse(readFileSync(this.#file, "utf8")) as Partial<KeptFile> | null;
      if (file?.format !== FRONTMATTER_CHECK_FORMAT || !Array.isArray(file.entries)) return [];
      return file.entries.flatMap((sealed) => unseal<KeptEntry>(sealed) ?? []);
    } catch {
      return [];
    }
  }
}
