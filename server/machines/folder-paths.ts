/** Path rules for project folders: what may be registered, and which files inside may be read. */
import { realpathSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";

/** `child` is `root` or inside it (both already resolved). */
export function isInside(root: string, child: string): boolean {
  const rel = relative(root, child);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/**
 * Resolve a project-relative path to an absolute one that stays inside the project even through symlinks;
 * undefined when it escapes or does not exist.
 */
export function resolveInsideProject(projectDir: string, relPath: string): string | undefined {
  if (relPath.includes("\0") || isAbsolute(relPath)) return undefined;
  const candidate = resolve(projectDir, relPath);
  if (!isInside(projectDir, candidate)) return undefined;
  try {
    const real = realpathSync(candidate);
    return isInside(realpathSync(projectDir), real) ? real : undefined;
  } catch {
    return undefined;
  }
}

/** A filesystem-safe folder name from a project name. */
export function folderSlug(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[^\w\s.-]/g, "")
    .trim()
    .replace(/[\s.]+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^-|-$/g, "")
    .toLowerCase()
    .slice(0, 60);
  return slug || "project";
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Project-relative path with forward slashes (what the API and events carry). */
export function toProjectRelative(projectDir: string, absolute: string): string {
  return relative(projectDir, absolute).split(sep).join("/");
}

export { join };

/**
 * A path given relative to a folder stays inside it by its shape alone: relative, and no `..` climbs out of it (what
 * can be checked of a path on another machine without asking it; the read there resolves symlinks).
 */
export function staysInside(path: string): boolean {
  if (path.startsWith("/") || path.includes("\0")) return false;
  let depth = 0;
  for (const part of path.split("/")) {
    if (part === "..") depth--;
    else if (part && part !== ".") depth++;
    if (depth < 0) return false;
  }
  return depth > 0;
}
