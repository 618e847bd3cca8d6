/** Where od keeps its data: `--data-dir`, else `$OD_DATA_DIR`, else `~/.od`. */
import { join, resolve } from "node:path";

export function resolveDataDir(env: Record<string, string | undefined> = process.env, override?: string): string {
  if (override) return resolve(override);
  if (env.OD_DATA_DIR) return resolve(env.OD_DATA_DIR);
  // node:os only when HOME is unset: the daemon's shell resolves this before it listens.
  return join(env.HOME || process.getBuiltinModule("node:os").homedir(), ".od");
}

/** Files and folders inside the data dir, named once. */
export const dataPaths = (dataDir: string) => ({
  database: join(dataDir, "od.db"),
  localProfiles: join(dataDir, "agents.local.json"),
  skills: join(dataDir, "skills"),
  projects: join(dataDir, "projects"),
  mcp: join(dataDir, "mcp.json"),
  logs: join(dataDir, "logs"),
});
