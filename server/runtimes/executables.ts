/**
 * Where a def's executable is: `<ID>_BIN` override → PATH plus user toolchain dirs → `fallbackBins`. Every rule
 * that differs on Windows (`;` PATH, PATHEXT, `.exe` before `.cmd`/`.bat` shims, case-insensitive env) is a pure
 * function of a `platform` argument, so it is tested on any host.
 */
import { accessSync, constants, readdirSync, realpathSync, statSync } from "node:fs";
import { posix, win32 } from "node:path";
import type { EnvMap, RuntimeAgentDef } from "./types.ts";

/** What a candidate path is on disk. */
export type FileState = "executable" | "not-executable" | "missing";

/** Inputs of a lookup; tests pass a fake `statFile` and any platform. */
export type ExecutableLookup = {
  env: EnvMap;
  platform: NodeJS.Platform;
  homeDir?: string;
  statFile?: (path: string) => FileState;
};

/** Found: the path and how it was found. `executable: false` means only a non-executable file matched. */
export type ExecutableResolution =
  | { found: true; path: string; source: "override" | "path" | "fallback"; executable: boolean; searchedDirs: string[] }
  | { found: false; searchedDirs: string[]; invalidOverride?: { envVar: string; value: string } };

const MAX_SEARCHED_DIRS = 24;

/** Env lookup that ignores case on Windows (`Path` vs `PATH`). */
export function envGet(env: EnvMap, key: string, platform: NodeJS.Platform): string | undefined {
  if (platform !== "win32") return env[key];
  if (env[key] !== undefined) return env[key];
  const upper = key.toUpperCase();
  const match = Object.keys(env).find((name) => name.toUpperCase() === upper);
  return match === undefined ? undefined : env[match];
}

/**
 * `CODEX_BIN`, `CURSOR_AGENT_BIN`, … or the def's own `binEnvVar` (`DSH_BIN`): the id in capitals, each run of other
 * characters one `_`. A loop, not a pattern: every run asks this, and a pattern is compiled at its first use.
 */
export function binOverrideEnvVar(def: Pick<RuntimeAgentDef, "id" | "binEnvVar">): string {
  if (def.binEnvVar !== undefined) return def.binEnvVar;
  const id = def.id.toUpperCase();
  let name = "";
  let inGap = false;
  for (let i = 0; i < id.length; i++) {
    const code = id.charCodeAt(i);
    const kept = (code >= 48 && code <= 57) || (code >= 65 && code <= 90);
    if (kept) name += id[i];
    else if (!inGap) name += "_";
    inGap = !kept;
  }
  return `${name}_BIN`;
}

function pathApi(platform: NodeJS.Platform) {
  return platform === "win32" ? win32 : posix;
}

/** User toolchain bin dirs that GUI-launched daemons often miss from PATH. */
export function toolchainDirs(env: EnvMap, platform: NodeJS.Platform, homeDir: string): string[] {
  const { join } = pathApi(platform);
  const dirs = [
    join(homeDir, ".local", "bin"),
    join(homeDir, ".npm-global", "bin"),
    join(homeDir, ".bun", "bin"),
    join(homeDir, ".volta", "bin"),
    join(homeDir, ".cargo", "bin"),
  ];
  const nvmBin = envGet(env, "NVM_BIN", platform);
  if (nvmBin) dirs.push(nvmBin);
  const fnm = envGet(env, "FNM_MULTISHELL_PATH", platform);
  if (fnm) dirs.push(platform === "win32" ? fnm : join(fnm, "bin"));
  const miseData = envGet(env, "MISE_DATA_DIR", platform) || join(homeDir, ".local", "share", "mise");
  dirs.push(join(miseData, "shims"));
  if (platform === "win32") {
    const appData = envGet(env, "APPDATA", platform);
    if (appData) dirs.push(join(appData, "npm"));
    const localAppData = envGet(env, "LOCALAPPDATA", platform);
    if (localAppData) dirs.push(join(localAppData, "Volta", "bin"));
  }
  return dirs;
}

/** PATH entries, then toolchain dirs, without duplicates (case-insensitively on Windows). */
export function searchDirs(env: EnvMap, platform: NodeJS.Platform, homeDir: string): string[] {
  const delimiter = platform === "win32" ? ";" : ":";
  const fromPath = (envGet(env, "PATH", platform) ?? "").split(delimiter).filter(Boolean);
  const seen = new Set<string>();
  const dirs: string[] = [];
  for (const dir of [...fromPath, ...toolchainDirs(env, platform, homeDir)]) {
    const key = platform === "win32" ? dir.toLowerCase() : dir;
    if (seen.has(key)) continue;
    seen.add(key);
    dirs.push(dir);
  }
  return dirs;
}

/** File names to try for a command: on Windows `.exe` first, then the other PATHEXT entries (shims last). */
export function executableCandidates(name: string, env: EnvMap, platform: NodeJS.Platform): string[] {
  if (platform !== "win32") return [name];
  const pathExt = (envGet(env, "PATHEXT", platform) ?? ".COM;.EXE;.BAT;.CMD")
    .split(";")
    .map((ext) => ext.trim().toLowerCase())
    .filter((ext) => ext.startsWith("."));
  const lower = name.toLowerCase();
  if (pathExt.some((ext) => lower.endsWith(ext))) return [name];
  const ordered = [".exe", ...pathExt.filter((ext) => ext !== ".exe")];
  return ordered.map((ext) => `${name}${ext}`);
}

/** A `.cmd`/`.bat` file needs `cmd.exe` to run. */
export function isWindowsShim(path: string, platform: NodeJS.Platform): boolean {
  return platform === "win32" && /\.(cmd|bat)$/i.test(path);
}

/** Real file-system check used outside tests. */
export function statFileOnDisk(path: string, platform: NodeJS.Platform = process.platform): FileState {
  try {
    if (!statSync(path).isFile()) return "missing";
  } catch {
    return "missing";
  }
  if (platform === "win32") return "executable";
  try {
    accessSync(path, constants.X_OK);
    return "executable";
  } catch {
    return "not-executable";
  }
}

/**
 * A `statFile` for one detection pass: each directory is listed once, and a name it does not hold is "missing"
 * without a syscall; names it does hold are checked with `statFileOnDisk`. Most defs are not installed, so a pass
 * otherwise stats every def's name in every PATH dir (hundreds of synchronous calls, ahead of the first spawn).
 * Names are compared case-folded, so a case-insensitive file system still reaches the real check; a directory that
 * cannot be listed (but might be searchable) falls back to stat. Directories that are one folder (`/bin` and `/usr/bin`
 * where `/bin` links to `usr/bin`, as on most Linux systems today; ~1,150 names here) share one listing.
 */
export function statFileWithDirCache(platform: NodeJS.Platform = process.platform): (path: string) => FileState {
  const { dirname, basename } = pathApi(platform);
  const byDir = new Map<string, Set<string> | null>();
  const byFolder = new Map<string, Set<string> | null>();
  return (path) => {
    const dir = dirname(path);
    let names = byDir.get(dir);
    if (names === undefined) {
      const folder = realFolder(dir);
      names = byFolder.get(folder);
      if (names === undefined) {
        names = listFolded(dir);
        byFolder.set(folder, names);
      }
      byDir.set(dir, names);
    }
    const name = basename(path);
    // Non-ASCII names may be stored in another Unicode normalisation: only the real check can tell.
    if (names && /^[\x20-\x7e]*$/.test(name) && !names.has(name.toLowerCase())) return "missing";
    return statFileOnDisk(path, platform);
  };
}

/** The folder `dir` is, links resolved; `dir` itself when that cannot be told (it is then listed on its own). */
function realFolder(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}

/** Lower-cased entry names of `dir`; empty when it does not exist; null when it exists but cannot be listed. */
function listFolded(dir: string): Set<string> | null {
  try {
    return new Set(readdirSync(dir).map((entry) => entry.toLowerCase()));
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    return code === "ENOENT" || code === "ENOTDIR" ? new Set() : null;
  }
}

function hasDirPart(name: string, platform: NodeJS.Platform): boolean {
  return name.includes("/") || (platform === "win32" && name.includes("\\"));
}

/** First match of `name` in `dirs`; an executable match wins over an earlier non-executable one. */
export function findExecutable(
  name: string,
  dirs: readonly string[],
  lookup: ExecutableLookup,
): { path: string; executable: boolean } | undefined {
  const stat = lookup.statFile ?? ((path: string) => statFileOnDisk(path, lookup.platform));
  const candidates = executableCandidates(name, lookup.env, lookup.platform);
  const { join } = pathApi(lookup.platform);
  const places = hasDirPart(name, lookup.platform) ? [""] : dirs;
  let blocked: string | undefined;
  for (const dir of places) {
    for (const candidate of candidates) {
      const path = dir ? join(dir, candidate) : candidate;
      const state = stat(path);
      if (state === "executable") return { path, executable: true };
      if (state === "not-executable") blocked ??= path;
    }
  }
  return blocked ? { path: blocked, executable: false } : undefined;
}

/** Resolve a def's executable under one environment. */
export function resolveExecutable(def: Pick<RuntimeAgentDef, "id" | "bin" | "fallbackBins" | "binEnvVar">, lookup: ExecutableLookup): ExecutableResolution {
  const homeDir = lookup.homeDir ?? (envGet(lookup.env, "HOME", lookup.platform) || envGet(lookup.env, "USERPROFILE", lookup.platform) || process.getBuiltinModule("node:os").homedir());
  const dirs = searchDirs(lookup.env, lookup.platform, homeDir);
  const searchedDirs = dirs.slice(0, MAX_SEARCHED_DIRS);
  const envVar = binOverrideEnvVar(def);
  const override = envGet(lookup.env, envVar, lookup.platform)?.trim();
  if (override) {
    const hit = findExecutable(override, dirs, lookup);
    // An explicit override that does not resolve is the user's intent gone wrong: report it, don't guess.
    if (!hit) return { found: false, searchedDirs, invalidOverride: { envVar, value: override } };
    return { found: true, path: hit.path, source: "override", executable: hit.executable, searchedDirs };
  }
  const primary = findExecutable(def.bin, dirs, lookup);
  if (primary?.executable) return { found: true, path: primary.path, source: "path", executable: true, searchedDirs };
  for (const name of def.fallbackBins ?? []) {
    const hit = findExecutable(name, dirs, lookup);
    if (hit?.executable) return { found: true, path: hit.path, source: "fallback", executable: true, searchedDirs };
  }
  if (primary) return { found: true, path: primary.path, source: "path", executable: false, searchedDirs };
  return { found: false, searchedDirs };
}
