/** The data dir and the files inside it. */
import { join, resolve } from "node:path";
import { chosenDataDir } from "./data-dir.ts";

/** Where od keeps its data, absolute: `--data-dir`, else `$OD_DATA_DIR`, else `~/.od`. */
export function resolveDataDir(env: Record<string, string | undefined> = process.env, override?: string): string {
  return resolve(chosenDataDir(env, override));
}

/** Files and folders inside the data dir, named once. */
export const dataPaths = (dataDir: string) => ({
  database: join(dataDir, "od.db"),
  localProfiles: join(dataDir, "agents.local.json"),
  agentCache: join(dataDir, "agents-cache.json"),
  /** SKILL.md frontmatters checked before (skills/checked-frontmatter.ts). */
  skillsCache: join(dataDir, "skills-cache.json"),
  skills: join(dataDir, "skills"),
  /** Scratch folders of connection tests, one per test (removed when it ends). */
  connectionTests: join(dataDir, "connection-tests"),
  projects: join(dataDir, "projects"),
  /** Uploads to projects on other machines, one `<project id>/.od/uploads/` each (runs copy them over). */
  remoteUploads: join(dataDir, "remote-uploads"),
  mcp: join(dataDir, "mcp.json"),
  /** Room kept free for a run's last records should the disk fill up (store/disk-space.ts). */
  spaceReserve: join(dataDir, "space-reserve"),
  /** Isolated runs' git worktrees of projects on this machine, one `<project id>/<short run id>` each. */
  worktrees: join(dataDir, "worktrees"),
  /** The whole answer text of runs too large for their stored message, one `<run id>.txt` each. */
  runOutput: join(dataDir, "run-output"),
});
