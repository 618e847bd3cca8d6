/** One hash of the contents of files and folders (recursively, node_modules and dot-folders left out), and a salt. */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

export function sourcesHash(root: string, paths: string[], salt = ""): string {
  const hash = createHash("sha256").update(salt);
  const add = (path: string) => {
    const full = join(root, path);
    let stat;
    try {
      stat = statSync(full);
    } catch {
      hash.update(`missing ${path}\0`);
      return;
    }
    if (stat.isDirectory()) {
      for (const entry of readdirSync(full).sort()) if (entry !== "node_modules" && !entry.startsWith(".")) add(join(path, entry));
    } else {
      hash.update(`${path}\0${stat.size}\0`).update(readFileSync(full));
    }
  };
  for (const path of paths) add(path);
  return hash.digest("hex").slice(0, 16);
}
