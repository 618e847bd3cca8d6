/**
 * Installs the pinned real CLIs (versions.ts) into the git-ignored tests/realcli/.cache/ with ONE
 * `npm install --prefix`, and reuses that install while a stamp file says the versions still match.
 * A failed install is an error carrying npm's own output, never a silent skip.
 *
 * Standalone: `node_modules/.bin/bun tests/realcli/setup.ts` installs (or confirms), saying what it installs
 * (package@version), where, the size on disk as it grows, and the size and time at the end; on failure, npm's reason.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, type Dirent } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnChild } from "../../server/platform/process.ts";
import { pinnedInstallSpecs } from "./versions.ts";

/** The npm prefix holding the pinned CLIs. */
export const REAL_CLI_CACHE_DIR = join(dirname(fileURLToPath(import.meta.url)), ".cache");
/** Its node_modules, where recipes.ts finds each CLI's real entry point. */
export const REAL_CLI_NODE_MODULES = join(REAL_CLI_CACHE_DIR, "node_modules");

/** Raised when `npm install` fails; `message` holds npm's error text. */
export class RealCliInstallError extends Error {
  override name = "RealCliInstallError";
  constructor(
    message: string,
    readonly exitCode: number | null,
  ) {
    super(message);
  }
}

/** What setup did: whether it reused an earlier install, how long it took, and how much it holds on disk. */
export type RealCliInstall = { prefix: string; nodeModules: string; reused: boolean; seconds: number; bytes: number };

/** Where and what to install: the pinned set into .cache by default; tests pass a small fake set and a temp prefix. */
export type RealCliInstallOptions = {
  timeoutMs?: number;
  specs?: string[];
  prefix?: string;
  /** Receives the status lines (what, where, progress, size, time); silent when absent. */
  report?: (line: string) => void;
  /** How often progress (the size on disk so far) is reported while npm runs. */
  progressEveryMs?: number;
};

const stampFile = (prefix: string) => join(prefix, "installed.json");

/** True when the stamp matches the specs exactly. */
export function installIsCurrent(specs: string[] = pinnedInstallSpecs(), prefix = REAL_CLI_CACHE_DIR): boolean {
  return readStamp(specs, prefix) !== undefined;
}

/** The stamp of an install of exactly these specs (with the size it measured), else undefined. */
function readStamp(specs: string[], prefix: string): { bytes?: number } | undefined {
  if (!existsSync(stampFile(prefix)) || !existsSync(join(prefix, "node_modules"))) return undefined;
  try {
    const stamp = JSON.parse(readFileSync(stampFile(prefix), "utf8")) as { specs?: unknown; bytes?: unknown };
    if (JSON.stringify(stamp.specs) !== JSON.stringify(specs)) return undefined;
    return typeof stamp.bytes === "number" ? { bytes: stamp.bytes } : {};
  } catch {
    return undefined;
  }
}

/** Bytes of the regular files under `dir` (links not followed); 0 when it does not exist yet. */
export function diskBytes(dir: string): number {
  let total = 0;
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += diskBytes(path);
    else if (entry.isFile()) {
      try {
        total += lstatSync(path).size;
      } catch {
        // Removed while we looked (npm moves files into place): it is counted at its new path.
      }
    }
  }
  return total;
}

/** 2.3 GB, 850 MB, 12 KB: decimal units, as download sizes are usually given. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
  if (bytes >= 1e6) return `${Math.round(bytes / 1e6)} MB`;
  return `${Math.max(1, Math.round(bytes / 1e3))} KB`;
}

/**
 * Install the specs unless the prefix already holds exactly them. Says what it installs and where before it starts,
 * the size on disk so far while npm runs, and the size and time at the end. Throws {@link RealCliInstallError}.
 */
export async function ensureRealClis(options: RealCliInstallOptions = {}): Promise<RealCliInstall> {
  const started = performance.now();
  const specs = options.specs ?? pinnedInstallSpecs();
  const prefix = options.prefix ?? REAL_CLI_CACHE_DIR;
  const nodeModules = join(prefix, "node_modules");
  const report = options.report ?? (() => {});
  const elapsed = () => Math.round((performance.now() - started) / 100) / 10;
  const result = (reused: boolean, bytes: number): RealCliInstall => ({ prefix, nodeModules, reused, seconds: elapsed(), bytes });
  const stamp = readStamp(specs, prefix);
  if (stamp) {
    const bytes = stamp.bytes ?? diskBytes(nodeModules);
    report(`real CLIs: up to date in ${prefix} (${specs.length} packages, ${formatBytes(bytes)})`);
    return result(true, bytes);
  }

  rmSync(stampFile(prefix), { force: true });
  mkdirSync(prefix, { recursive: true });
  report(`real CLIs: installing ${specs.length} packages into ${prefix} with npm: ${specs.join(", ")}`);
  // npm's own level, not the one `npm run -s` (or a user's config) exports to it: silent, a failure said nothing.
  const argv = ["npm", "install", "--prefix", prefix, "--no-audit", "--no-fund", "--save-exact", "--loglevel", "warn", ...specs];
  const child = await spawnChild({ argv, env: { ...process.env }, stdin: "ignore", ownProcessGroup: true });
  const output: string[] = [];
  const collect = async (stream: AsyncIterable<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) output.push(decoder.decode(chunk, { stream: true }));
  };
  const timeoutMs = options.timeoutMs ?? 15 * 60_000;
  const timer = setTimeout(() => child.kill("SIGKILL", { group: true }), timeoutMs);
  const progress = setInterval(() => report(`real CLIs: ${formatBytes(diskBytes(nodeModules))} on disk so far (${Math.round(elapsed())} s)`), options.progressEveryMs ?? 15_000);
  let exit: Awaited<typeof child.exited>;
  try {
    [exit] = await Promise.all([child.exited, collect(child.stdout), collect(child.stderr)]);
  } finally {
    clearTimeout(timer);
    clearInterval(progress);
  }
  if (exit.code !== 0) {
    const tail = output.join("").trim().split("\n").slice(-40).join("\n");
    const why = exit.signal ? `killed by ${exit.signal} (timeout ${timeoutMs} ms?)` : `exit ${exit.code}`;
    throw new RealCliInstallError(`npm install of the real CLIs into ${prefix} failed (${why}):\n${tail}`, exit.code);
  }
  const bytes = diskBytes(nodeModules);
  writeFileSync(stampFile(prefix), `${JSON.stringify({ specs, bytes, installedAt: new Date().toISOString() }, null, 2)}\n`);
  const install = result(false, bytes);
  report(`real CLIs: installed ${specs.length} packages, ${formatBytes(bytes)}, in ${install.seconds} s into ${prefix}`);
  return install;
}

if (import.meta.main) {
  try {
    await ensureRealClis({ report: (line) => console.log(line) });
  } catch (error) {
    console.error(`real CLIs: failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
