/**
 * Which data dir the user chose: `--data-dir`, else `$OD_DATA_DIR`, else `~/.od` — as given, possibly relative.
 * Plain string work on purpose: the daemon's shell picks it before it listens, where loading node:path would cost
 * it time; the engine (and resolveDataDir in paths.ts, for everything else) makes it absolute.
 */
export function chosenDataDir(env: Record<string, string | undefined> = process.env, override?: string): string {
  if (override) return override;
  if (env.OD_DATA_DIR) return env.OD_DATA_DIR;
  // node:os only when HOME is unset.
  return `${env.HOME || process.getBuiltinModule("node:os").homedir()}/.od`;
}
