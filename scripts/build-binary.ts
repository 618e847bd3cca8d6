#!/usr/bin/env bun
/**
 * Builds the single `od` executable: web bundle + OpenAPI document + DSH profile tarball (dist/dsh) → embedded assets →
 * `bun build --compile`.
 *   bun run scripts/build-binary.ts            → dist/od for this machine
 *   bun run scripts/build-binary.ts --release  → dist/release/od-<os>-<arch>[.exe] for every target + SHA256SUMS
 *   bun run scripts/build-binary.ts --release --only linux-x64[,darwin-arm64]
 *                                              → the same names and SHA256SUMS format for those targets only (the
 *                                                host's needs no download; the others fetch their Bun runtime)
 */
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { buildOpenApi } from "./build-openapi.ts";
import { STARTUP_JIT_POLICY } from "../server/platform/jit-policy.ts";
import { buildWeb } from "./build-web.ts";
import { recordBytecodeOrder } from "./bytecode-profile.ts";
import { packDshRuntime } from "./pack-dsh-runtime.ts";

const root = join(import.meta.dir, "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };

/** Release targets: file name suffix → Bun compile target. */
export const RELEASE_TARGETS = {
  "linux-x64": "bun-linux-x64",
  "linux-arm64": "bun-linux-arm64",
  "darwin-x64": "bun-darwin-x64",
  "darwin-arm64": "bun-darwin-arm64",
  "windows-x64": "bun-windows-x64",
} as const satisfies Record<string, Bun.Build.CompileTarget>;

/**
 * How the binary's JavaScript is bundled: shared by the compile, by the test that checks what its shell loads and by
 * the floors bench/ measures beside od (compiled from another entry point exactly as od is).
 */
export function odBundleConfig(entrypoint = join(root, "server", "binary.ts")) {
  return {
    entrypoints: [entrypoint],
    target: "bun",
    minify: true,
    // Split at dynamic imports: the daemon's shell (argv, guard, listen) loads without parsing the engine's code.
    splitting: true,
    format: "esm",
    define: { "process.env.OD_BUILD": '"binary"' },
  } satisfies Partial<Bun.BuildConfig>;
}

/**
 * One `bun build --compile` of `entrypoint` as od is compiled. `bytecodeOrder`: start-up profiles
 * (scripts/bytecode-profile.ts) that lay out the bytecode the common starts use at the front. The binary starts with a
 * reluctant JIT that the program resets once start-up is over (server/platform/jit-policy.ts).
 */
export async function compileLikeOd(entrypoint: string, outfile: string, target?: Bun.Build.CompileTarget, bytecodeOrder?: string[]): Promise<string> {
  const result = await Bun.build({
    ...odBundleConfig(entrypoint),
    compile: {
      outfile,
      ...(target ? { target } : {}),
      autoloadBunfig: false,
      autoloadDotenv: false,
      jitPolicy: STARTUP_JIT_POLICY,
      ...(bytecodeOrder?.length ? { bytecodeOrder } : {}),
    },
    // Bytecode cuts start-up by about a third; it needs the server graph free of top-level await.
    bytecode: true,
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    throw new Error(`compile of ${basename(entrypoint)} failed for ${target ?? "host"}`);
  }
  return outfile;
}

/** One compile of od (server/binary.ts); see compileLikeOd. */
export function compileOd(outfile: string, target?: Bun.Build.CompileTarget, bytecodeOrder?: string[]): Promise<string> {
  return compileLikeOd(join(root, "server", "binary.ts"), outfile, target, bytecodeOrder);
}

/** Everything the binary embeds: the web bundle (dist/web), the OpenAPI document and the DSH profile tarball + manifest (dist/dsh). */
export async function buildEmbeddedAssets(): Promise<void> {
  await buildWeb();
  buildOpenApi();
  await packDshRuntime();
}

/**
 * Start-up profiles recorded from a first, unprofiled build for this machine, into `dir`. A machine where they cannot
 * be recorded still gets a working binary, laid out without them, and is told so.
 */
export async function recordStartupProfiles(dir: string): Promise<string[]> {
  const unprofiled = join(dir, "od-unprofiled");
  try {
    return await recordBytecodeOrder(await compileOd(unprofiled), dir);
  } catch (error) {
    console.warn(`building without start-up profiles: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  } finally {
    rmSync(unprofiled, { force: true });
  }
}

/** dist/od as users get it: compiled with the start-up profiles of a first build. */
export async function buildOd(outfile: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "od-build-"));
  try {
    return await compileOd(outfile, undefined, await recordStartupProfiles(dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The release targets `--only a,b` names (all of them without `--only`); an unknown name is an error before any build. */
export function selectReleaseTargets(argv: readonly string[]): [string, Bun.Build.CompileTarget][] {
  const all = Object.entries(RELEASE_TARGETS) as [string, Bun.Build.CompileTarget][];
  const at = argv.indexOf("--only");
  if (at === -1) return all;
  const names = (argv[at + 1] ?? "").split(",").filter(Boolean);
  const unknown = names.filter((name) => !(name in RELEASE_TARGETS));
  if (!names.length || unknown.length) {
    throw new Error(`--only takes release targets separated by commas (${Object.keys(RELEASE_TARGETS).join(", ")}); got "${argv[at + 1] ?? ""}"`);
  }
  return all.filter(([name]) => names.includes(name));
}

/** The file a release target is written to: `od-<os>-<arch>`, `.exe` on Windows. */
export function releaseFileName(target: string): string {
  return `od-${target}${target.startsWith("windows") ? ".exe" : ""}`;
}

async function main(): Promise<void> {
  const release = process.argv.includes("--release");
  const targets = selectReleaseTargets(process.argv);
  await buildEmbeddedAssets();
  if (!release) {
    const out = await buildOd(join(root, "dist", "od"));
    console.log(`built ${out.replace(root + "/", "")} (od ${pkg.version})`);
    return;
  }
  const dir = join(root, "dist", "release");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const sums: string[] = [];
  // One set of profiles for every target: they name functions by their code, not by the machine they ran on.
  const profileDir = mkdtempSync(join(tmpdir(), "od-build-"));
  try {
    const profiles = await recordStartupProfiles(profileDir);
    for (const [name, target] of targets) {
      const outfile = join(dir, releaseFileName(name));
      await compileOd(outfile, target, profiles);
      sums.push(`${createHash("sha256").update(readFileSync(outfile)).digest("hex")}  ${basename(outfile)}`);
      console.log(`built ${basename(outfile)}`);
    }
  } finally {
    rmSync(profileDir, { recursive: true, force: true });
  }
  writeFileSync(join(dir, "SHA256SUMS"), sums.join("\n") + "\n");
  console.log(`wrote dist/release/SHA256SUMS (${sums.length} binaries)`);
  // The installers travel with the release they install from, so `curl -fsSL <release>/install.sh | sh` works.
  // They are not in SHA256SUMS: it lists what they verify, and a script read through a pipe is checked by nobody.
  for (const installer of ["install.sh", "install.ps1"]) copyFileSync(join(root, "scripts", installer), join(dir, installer));
}

if (import.meta.main) await main();
