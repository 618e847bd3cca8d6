/**
 * Installs the pinned real CLIs (versions.ts) into the git-ignored tests/realcli/.cache/ with ONE
 * `npm install --prefix`, and reuses that install while a stamp file says the versions still match.
 * A failed install is an error carrying npm's own output, never a silent skip.
 *
 * Standalone: `node_modules/.bin/bun tests/realcli/setup.ts` installs (or confirms) and prints the prefix.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnChild } from "../../server/platform/process.ts";
import { pinnedInstallSpecs } from "./versions.ts";

/** The npm prefix holding the pinned CLIs. */
export const REAL_CLI_CACHE_DIR = join(dirname(fileURLToPath(import.meta.url)), ".cache");
/** Its node_modules, where recipes.ts finds each CLI's real entry point. */
export const REAL_CLI_NODE_MODULES = join(REAL_CLI_CACHE_DIR, "node_modules");
const STAMP_FILE = join(REAL_CLI_CACHE_DIR, "installed.json");

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

/** What setup did: whether it reused an earlier install, and how long it took. */
export type RealCliInstall = { prefix: string; nodeModules: string; reused: boolean; seconds: number };

/** True when the stamp matches the pinned specs exactly. */
export function installIsCurrent(specs: string[] = pinnedInstallSpecs()): boolean {
  if (!existsSync(STAMP_FILE) || !existsSync(REAL_CLI_NODE_MODULES)) return false;
  try {
    const stamp = JSON.parse(readFileSync(STAMP_FILE, "utf8")) as { specs?: unknown };
    return JSON.stringify(stamp.specs) === JSON.stringify(specs);
  } catch {
    return false;
  }
}

/** Install the pinned CLIs unless the cache already holds exactly them. Throws {@link RealCliInstallError}. */
export async function ensureRealClis(options: { timeoutMs?: number } = {}): Promise<RealCliInstall> {
  const started = performance.now();
  const specs = pinnedInstallSpecs();
  const result = (reused: boolean): RealCliInstall => ({
    prefix: REAL_CLI_CACHE_DIR,
    nodeModules: REAL_CLI_NODE_MODULES,
    reused,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  });
  if (installIsCurrent(specs)) return result(true);

  rmSync(STAMP_FILE, { force: true });
  mkdirSync(REAL_CLI_CACHE_DIR, { recursive: true });
  const argv = ["npm", "install", "--prefix", REAL_CLI_CACHE_DIR, "--no-audit", "--no-fund", "--save-exact", ...specs];
  const child = await spawnChild({ argv, env: { ...process.env }, stdin: "ignore", ownProcessGroup: true });
  const output: string[] = [];
  const collect = async (stream: AsyncIterable<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) output.push(decoder.decode(chunk, { stream: true }));
  };
  const timeoutMs = options.timeoutMs ?? 15 * 60_000;
  const timer = setTimeout(() => child.kill("SIGKILL", { group: true }), timeoutMs);
  const [exit] = await Promise.all([child.exited, collect(child.stdout), collect(child.stderr)]);
  clearTimeout(timer);
  if (exit.code !== 0) {
    const tail = output.join("").trim().split("\n").slice(-40).join("\n");
    const why = exit.signal ? `killed by ${exit.signal} (timeout ${timeoutMs} ms?)` : `exit ${exit.code}`;
    throw new RealCliInstallError(`npm install of the pinned real CLIs failed (${why}):\n${tail}`, exit.code);
  }
  writeFileSync(STAMP_FILE, `${JSON.stringify({ specs, installedAt: new Date().toISOString() }, null, 2)}\n`);
  return result(false);
}

if (import.meta.main) {
  try {
    const install = await ensureRealClis();
    console.log(`${install.reused ? "reused" : "installed"} ${install.prefix} (${install.seconds} s)`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
