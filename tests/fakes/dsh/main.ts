/**
 * The fake `dsh`: enough of the DeepSeek Harness CLI for od's tests, and faithful where it matters — a profile is
 * an installed package under `<DSH_HOME>/profiles/<name>/`, and `--probe|--models|--stdio` load THAT package's
 * startup module and hand it a scripted harness. Behaviour comes from FAKE_DSH_SCRIPT (see script.ts).
 *
 *   dsh --version
 *   dsh plugin --profile <name> add <tarball>     (path relative to the profile dir)
 *   dsh --profile <name> (--probe | --models | --stdio)
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { StartupContext } from "../../../server/dsh-runtime/src/index.mjs";
import { createFakeHarness } from "./harness.ts";
import { readScript } from "./script.ts";

const env = process.env;
const script = readScript(env);
const dshHome = env.DSH_HOME || join(homedir(), ".dsh");
const profileDir = (name: string) => join(dshHome, "profiles", name);

function fail(message: string, code = 1): never {
  process.stderr.write(`dsh: ${message}\n`);
  process.exit(code);
}

function flagValue(args: string[], flag: string): string | undefined {
  const index = args.indexOf(flag);
  return index === -1 ? undefined : args[index + 1];
}

function pluginAdd(profile: string, spec: string): void {
  if (script.failInstall) fail(script.failInstall);
  const dir = profileDir(profile);
  const tarball = resolve(dir, spec);
  if (!existsSync(tarball)) fail(`no such package: ${spec}`);
  const staging = mkdtempSync(join(tmpdir(), "fake-dsh-add-"));
  try {
    const untar = spawnSync("tar", ["-xzf", tarball, "-C", staging], { encoding: "utf8" });
    if (untar.status !== 0) fail(`could not unpack ${spec}: ${untar.stderr.trim()}`);
    const packageRoot = join(staging, "package");
    if (!existsSync(join(packageRoot, "package.json"))) fail(`${spec} is not a package (no package/package.json)`);
    const manifest = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")) as { name?: string; dsh?: { bundle?: unknown } };
    if (!manifest.dsh?.bundle) fail(`${manifest.name ?? spec} is not a dsh bundle`);
    mkdirSync(dir, { recursive: true });
    cpSync(packageRoot, dir, { recursive: true });
    process.stdout.write(`added ${manifest.name} to profile ${profile}\n`);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

async function runProfile(profile: string, modeArgs: string[]): Promise<number> {
  const dir = profileDir(profile);
  const packageJson = join(dir, "package.json");
  if (!existsSync(packageJson)) fail(`profile ${profile} is not installed (${packageJson} missing)`);
  const manifest = JSON.parse(readFileSync(packageJson, "utf8")) as { exports?: Record<string, unknown> };
  const entry = manifest.exports?.["./startup"];
  const startupPath = typeof entry === "string" ? entry : (entry as { default?: string } | undefined)?.default;
  if (!startupPath) fail(`profile ${profile} has no ./startup export`);
  const module = (await import(pathToFileURL(join(dir, startupPath)).href)) as { startup: (context: StartupContext) => Promise<number> };
  const write = (stream: NodeJS.WriteStream) => (chunk: string) =>
    new Promise<void>((done) => {
      stream.write(chunk, () => done());
    });
  return module.startup({
    argv: modeArgs,
    harness: createFakeHarness(script, join(dir, ".fake-sessions")),
    stdin: process.stdin,
    stdout: { write: write(process.stdout) },
    stderr: { write: write(process.stderr) },
  });
}

async function main(args: string[]): Promise<number> {
  if (args[0] === "--version") {
    process.stdout.write(`dsh ${script.version ?? "0.1.2-rc.1"}\n`);
    return 0;
  }
  if (args[0] === "plugin") {
    const profile = flagValue(args, "--profile");
    const addIndex = args.indexOf("add");
    const spec = addIndex === -1 ? undefined : args[addIndex + 1];
    if (!profile || !spec) fail("usage: dsh plugin --profile <name> add <spec>", 2);
    pluginAdd(profile, spec);
    return 0;
  }
  const profile = flagValue(args, "--profile");
  if (!profile) fail("usage: dsh --profile <name> (--probe | --models | --stdio)", 2);
  const rest = args.filter((_, i) => i !== args.indexOf("--profile") && i !== args.indexOf("--profile") + 1);
  return runProfile(profile, rest);
}

const code = await main(process.argv.slice(2));
// Like the real harness: exit with the profile's code even though stdin may still be open (output is flushed).
process.exit(code);
