/**
 * Companion install: puts od's embedded `open-design` profile into the user's DSH through the user's own `dsh`.
 *
 * 1. `dsh --version` (else AGENT_NOT_INSTALLED); probe — already compatible → done.
 * 2. Verify manifest + tarball bytes (else BUNDLED_COMPANION_INVALID, nothing touched).
 * 3. Snapshot the profile dir, stage the tarball as `.open-design/<sha256>.tgz`, run
 *    `dsh plugin --profile open-design add .open-design/<sha256>.tgz` (cwd = profile dir, 120 s), re-probe.
 * 4. Any failure restores the snapshot (COMPANION_INSTALL_FAILED / COMPANION_STILL_INCOMPATIBLE).
 * Concurrent calls for the same DSH home share one promise.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { parseDshProbe, type DshProbeParse } from "../runtimes/protocols/dsh-profile/probe.ts";
import type { DshRuntimeSource } from "./embedded-runtime.ts";
import type { DshSetupErrorCode } from "./setup-contract.ts";
import { DSH_AGENT_ID } from "./agent-id.ts";
import { verifyManifestAndTarball } from "./manifest.ts";
import { runDsh } from "./run-dsh.ts";

export const DSH_PROFILE_NAME = "open-design";
const INSTALL_TIMEOUT_MS = 120_000;
const PROBE_TIMEOUT_MS = 10_000;

export type { DshSetupErrorCode };

export type DshSetupResult =
  | { ok: true; action: "already-compatible" | "installed" | "repaired"; agent: typeof DSH_AGENT_ID; packageVersion: string }
  | { ok: false; agent: typeof DSH_AGENT_ID; code: DshSetupErrorCode; message: string };

/** How to start the user's dsh: the executable, plus the arguments before dsh's own (`/d /s /c <shim>` on Windows). */
export type DshProbeContext = {
  dshBin: string;
  dshArgsPrefix?: readonly string[];
  dshHome: string;
  env: Record<string, string | undefined>;
  expectedVersion?: string;
};
export type DshProbe = (context: DshProbeContext) => Promise<DshProbeParse>;

export type DshSetupOptions = {
  dshBin: string;
  /** Arguments placed before dsh's own (a Windows `.cmd` launcher runs through `cmd.exe /d /s /c <shim>`). */
  dshArgsPrefix?: readonly string[];
  dshHome: string;
  source: DshRuntimeSource;
  /** Compatibility check (default: `dsh --profile open-design --probe`, strict, exact embedded version). */
  probe?: DshProbe;
  /** Environment for dsh (DSH_HOME is set from `dshHome`). */
  env?: Record<string, string | undefined>;
  installTimeoutMs?: number;
};

/** `$DSH_HOME`, else `~/.dsh`. */
export const resolveDshHome = (env: Record<string, string | undefined>): string => env.DSH_HOME || join(env.HOME || homedir(), ".dsh");
export const dshProfileDir = (dshHome: string): string => join(dshHome, "profiles", DSH_PROFILE_NAME);

/** The default probe: preflight `package.json`, then `--probe` (10 s) parsed strictly. */
export const probeDshProfile: DshProbe = async ({ dshBin, dshArgsPrefix = [], dshHome, env, expectedVersion }) => {
  if (!existsSync(join(dshProfileDir(dshHome), "package.json"))) return { compatible: false, reason: "profile open-design is not installed" };
  const run = await runDsh(dshBin, [...dshArgsPrefix, "--profile", DSH_PROFILE_NAME, "--probe"], { env, timeoutMs: PROBE_TIMEOUT_MS });
  if (!run.started) return { compatible: false, reason: `dsh could not start (${run.errno})` };
  if (run.timedOut) return { compatible: false, reason: "probe timed out" };
  if (run.code !== 0) return { compatible: false, reason: `probe exited ${run.code}: ${tail(run.stderr)}` };
  return parseDshProbe(run.stdout, expectedVersion);
};

const inflight = new Map<string, Promise<DshSetupResult>>();

export function setupDshProfile(options: DshSetupOptions): Promise<DshSetupResult> {
  const key = dshProfileDir(options.dshHome);
  const running = inflight.get(key);
  if (running) return running;
  const promise = runSetup(options).finally(() => inflight.delete(key));
  inflight.set(key, promise);
  return promise;
}

async function runSetup(options: DshSetupOptions): Promise<DshSetupResult> {
  const env = { ...(options.env ?? process.env), DSH_HOME: options.dshHome };
  const probe = options.probe ?? probeDshProfile;
  const fail = (code: DshSetupErrorCode, message: string): DshSetupResult => ({ ok: false, agent: DSH_AGENT_ID, code, message });
  const prefix = options.dshArgsPrefix ?? [];

  const version = await runDsh(options.dshBin, [...prefix, "--version"], { env, timeoutMs: PROBE_TIMEOUT_MS });
  if (!version.started) return fail("AGENT_NOT_INSTALLED", `${options.dshBin} could not be started (${version.errno})`);
  if (version.code !== 0) return fail("AGENT_NOT_INSTALLED", `${options.dshBin} --version exited ${version.code}: ${tail(version.stderr)}`);

  let verified;
  try {
    verified = verifyManifestAndTarball(await options.source.manifest(), await options.source.readTarball());
  } catch (error) {
    return fail("BUNDLED_COMPANION_INVALID", `embedded profile unreadable: ${String(error)}`);
  }
  if (!verified.ok) return fail(verified.code, verified.message);
  const { manifest } = verified;
  const context: DshProbeContext = { dshBin: options.dshBin, dshArgsPrefix: prefix, dshHome: options.dshHome, env, expectedVersion: manifest.version };
  if ((await probe(context)).compatible) return { ok: true, action: "already-compatible", agent: DSH_AGENT_ID, packageVersion: manifest.version };

  const bytes = await options.source.readTarball();
  // Read twice on purpose: what we install must be what we verified, even if the source changed underneath.
  const recheck = verifyManifestAndTarball(manifest, bytes);
  if (!recheck.ok) return fail(recheck.code, recheck.message);

  const profileDir = dshProfileDir(options.dshHome);
  const existed = existsSync(join(profileDir, "package.json"));
  const snapshot = snapshotDir(profileDir);
  try {
    const spec = `.open-design/${manifest.sha256}.tgz`;
    stageFile(join(profileDir, spec), bytes);
    const install = await runDsh(options.dshBin, [...prefix, "plugin", "--profile", DSH_PROFILE_NAME, "add", spec], {
      cwd: profileDir,
      env,
      timeoutMs: options.installTimeoutMs ?? INSTALL_TIMEOUT_MS,
    });
    if (!install.started || install.timedOut || install.code !== 0) {
      const why = !install.started ? `could not start (${install.errno})` : install.timedOut ? "timed out" : `exited ${install.code}: ${tail(install.stderr)}`;
      snapshot.restore();
      return fail("COMPANION_INSTALL_FAILED", `dsh plugin add ${why}`);
    }
    const after = await probe(context);
    if (!after.compatible) {
      snapshot.restore();
      return fail("COMPANION_STILL_INCOMPATIBLE", `profile still incompatible after install: ${after.reason}`);
    }
    snapshot.discard();
    return { ok: true, action: existed ? "repaired" : "installed", agent: DSH_AGENT_ID, packageVersion: manifest.version };
  } catch (error) {
    snapshot.restore();
    return fail("COMPANION_INSTALL_FAILED", String(error));
  }
}

/** Copy of the profile dir (or the fact that there was none) taken before anything is written. */
function snapshotDir(dir: string): { restore(): void; discard(): void } {
  const parent = dirname(dir);
  mkdirSync(parent, { recursive: true });
  const existed = existsSync(dir);
  const backup = existed ? mkdtempSync(join(parent, ".open-design.backup-")) : undefined;
  if (backup) cpSync(dir, backup, { recursive: true, verbatimSymlinks: true });
  return {
    restore() {
      rmSync(dir, { recursive: true, force: true });
      if (backup) renameSync(backup, dir);
    },
    discard() {
      if (backup) rmSync(backup, { recursive: true, force: true });
    },
  };
}

/** Write to a temp name beside the target, then rename, so a half-written tarball never carries the final name. */
function stageFile(path: string, bytes: Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.partial-${process.pid}`;
  writeFileSync(temp, bytes);
  renameSync(temp, path);
}

const tail = (text: string): string => text.trim().split("\n").slice(-5).join("\n").slice(-600);
