/**
 * Where the bundled skills live on disk. From source they are the folder next to this file; inside the compiled
 * binary they are embedded files (see bundled-index.ts), extracted once into `<data dir>/bundled-skills/<hash>/` so
 * they are a real folder that staging can copy and agents can read.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { sha256 } from "../node-crypto.ts";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../private-data-dir.ts";

/**
 * Embedded bundled skills: skill-relative path (`html-prototype/SKILL.md`) → a path node:fs can read, and the hash of
 * their content (`bundledSkillsVersion`), worked out when the index is generated: a run that uses a bundled skill
 * neither reads every embedded file nor loads node:crypto (~2.5 ms) to find out which folder holds them.
 */
export type BundledSkillFiles = { readonly version: string; readonly files: Readonly<Record<string, string>> };

const COMPLETE_MARKER = ".od-complete";

/** The source folder of the bundled skills, when this module runs from source. */
export function sourceBundledSkillsDir(): string | undefined {
  try {
    // node:url is fetched, not imported: the binary never calls this, and loading it cost every `od run` ~1.2 ms.
    const dir = process.getBuiltinModule("node:url").fileURLToPath(new URL("./bundled/", import.meta.url));
    return statSync(dir).isDirectory() ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** The content hash of skill files (skill-relative path, bytes): the name of the folder they are extracted to. */
export function bundledSkillsVersion(entries: readonly (readonly [string, Uint8Array])[]): string {
  const hash = sha256();
  for (const [rel, bytes] of [...entries].sort(([a], [b]) => a.localeCompare(b))) hash.update(rel).update("\0").update(bytes).update("\0");
  return hash.digest("hex").slice(0, 12);
}

/** Writes the embedded files under `cacheRoot/<version>/` (once per version) and returns that folder. */
export function materializeBundledSkills(bundled: BundledSkillFiles, cacheRoot: string): string {
  const { version } = bundled;
  if (!/^[0-9a-f]{12}$/.test(version)) throw new Error(`bundled skills: not a content hash: ${version}`);
  const target = join(cacheRoot, version);
  if (existsSync(join(target, COMPLETE_MARKER))) return target;
  const entries = Object.entries(bundled.files)
    .filter(([rel]) => isSafeRelative(rel))
    .map(([rel, from]) => [rel, readFileSync(from)] as const);
  const temp = join(cacheRoot, `.${version}.${crypto.randomUUID().slice(0, 8)}.tmp`);
  for (const [rel, bytes] of entries) {
    mkdirSync(dirname(join(temp, rel)), { recursive: true, mode: PRIVATE_DIR_MODE });
    writeFileSync(join(temp, rel), bytes, { mode: PRIVATE_FILE_MODE });
  }
  writeFileSync(join(temp, COMPLETE_MARKER), "", { mode: PRIVATE_FILE_MODE });
  rmSync(target, { recursive: true, force: true });
  renameSync(temp, target);
  for (const old of readdirSync(cacheRoot)) {
    if (old !== version) rmSync(join(cacheRoot, old), { recursive: true, force: true }); // earlier versions of od
  }
  return target;
}

/**
 * A lazy, memoised resolver: the embedded files when given (the binary), else the source folder. Extraction
 * failures leave the bundled skills out rather than breaking the skill list.
 */
export function bundledSkillsResolver(options: { embedded?: BundledSkillFiles; cacheRoot: string }): () => string | undefined {
  let resolved: { dir: string | undefined } | undefined;
  return () => {
    if (resolved) return resolved.dir;
    let dir: string | undefined;
    try {
      dir = options.embedded && Object.keys(options.embedded.files).length ? materializeBundledSkills(options.embedded, options.cacheRoot) : sourceBundledSkillsDir();
    } catch (error) {
      console.error(`od: bundled skills unavailable: ${(error as Error).message}`);
    }
    resolved = { dir };
    return dir;
  };
}

function isSafeRelative(rel: string): boolean {
  return !rel.startsWith("/") && !rel.split("/").some((part) => part === ".." || part === "");
}
