/**
 * Folders that may never be a project: the filesystem root and the system's own trees, where an agent with
 * bypass-permission flags has no business, and where reading "files" can hang (`/proc/kmsg`) or fail oddly
 * (`/proc/self/mem`); and od's own data dir, which holds credentials (its `projects/` folders excepted).
 */
import { isAbsolute, join, parse, sep } from "node:path";
import { isInside } from "../machines/folder-paths.ts";

/** Refused together with everything under them. */
const SYSTEM_TREES = ["/proc", "/sys", "/dev", "/etc", "/boot", "/run", "/private/etc", "/System"];
/** Refused themselves; a folder under them (`/opt/app`, `/var/www/site`) is fine. */
const SYSTEM_ROOTS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/var", "/opt", "/private", "/private/var", "/Library", "/Applications", "/Users", "/home"];

/** Why `folder` (absolute, resolved) cannot be a project, or undefined when it can. */
export function refusedProjectFolder(folder: string, dataDir: string): string | undefined {
  if (!isAbsolute(folder)) return undefined;
  const system = refusedSystemFolder(folder);
  if (system) return system;
  if (isInside(dataDir, folder) && !isStrictlyInside(join(dataDir, "projects"), folder)) return `${folder} is od's own data dir`;
  return undefined;
}

/**
 * Why `folder` (absolute, resolved) is the root or a system folder, or undefined. A folder on another machine is
 * held to this too (od's data dir is not there, so only this part applies).
 */
export function refusedSystemFolder(folder: string): string | undefined {
  if (parse(folder).root === folder) return `${folder} is the filesystem root`;
  const tree = SYSTEM_TREES.find((root) => isInside(root, folder));
  if (tree) return `${folder} is inside the system folder ${tree}`;
  if (SYSTEM_ROOTS.includes(folder) || isWindowsSystemFolder(folder)) return `${folder} is a system folder`;
  return undefined;
}

/** True when `path` is inside od's data dir but not in one of its project folders (never served as a file). */
export function isPrivateDataPath(path: string, dataDir: string): boolean {
  return isInside(dataDir, path) && !isStrictlyInside(join(dataDir, "projects"), path);
}

function isStrictlyInside(root: string, child: string): boolean {
  return child !== root && isInside(root, child);
}

function isWindowsSystemFolder(folder: string): boolean {
  return sep === "\\" && /^[a-z]:\\(windows|program files( \(x86\))?)(\\|$)/i.test(folder);
}
