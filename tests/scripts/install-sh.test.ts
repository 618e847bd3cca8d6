/**
 * Issue #39: scripts/install.sh against `npm run build:release`'s output (the host's target only, built here when
 * dist/release lacks it) served from a loopback server: verify, then install; a tampered binary installs nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnChild } from "../../server/platform/process.ts";
import { VERSION } from "../../server/version.ts";
import { releaseFileName } from "../../scripts/build-binary.ts";
import { serveDir } from "../dsh/install-dsh-fixtures.ts";
import { withBuildLock } from "../support/build-lock.ts";
import { tempDir } from "../support/temp.ts";

const root = join(import.meta.dir, "..", "..");
const SCRIPT = join(root, "scripts", "install.sh");
const release = join(root, "dist", "release");
const HOST = `${process.platform === "darwin" ? "darwin" : "linux"}-${process.arch === "arm64" ? "arm64" : "x64"}`;
const NAME = releaseFileName(HOST);

async function run(argv: string[], env: Record<string, string>) {
  const child = await spawnChild({ argv, env: { PATH: "/usr/bin:/bin", ...env }, stdin: "ignore" });
  const decode = async (stream: AsyncIterable<Uint8Array>) => {
    let text = "";
    for await (const chunk of stream) text += new TextDecoder().decode(chunk);
    return text;
  };
  const [stdout, stderr, exit] = await Promise.all([decode(child.stdout), decode(child.stderr), child.exited]);
  return { stdout, stderr, code: exit.code };
}

const hasHostBuild = () => existsSync(join(release, NAME)) && existsSync(join(release, "install.sh")) && existsSync(join(release, "SHA256SUMS")) && readFileSync(join(release, "SHA256SUMS"), "utf8").includes(`  ${NAME}\n`);

const tampered = tempDir("od-release-tampered-");
let good: Awaited<ReturnType<typeof serveDir>>;
let bad: Awaited<ReturnType<typeof serveDir>>;

beforeAll(async () => {
  if (!hasHostBuild()) {
    const build = await withBuildLock(() => run([process.execPath, "run", join(root, "scripts", "build-binary.ts"), "--release", "--only", HOST], { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" }));
    if (build.code !== 0 || !hasHostBuild()) throw new Error(`build:release --only ${HOST} failed:\n${build.stdout}\n${build.stderr}`);
  }
  // The same release with one byte of the binary changed: the sums still name the real one.
  const bytes = readFileSync(join(release, NAME));
  bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0xff;
  writeFileSync(join(tampered.path, NAME), bytes);
  writeFileSync(join(tampered.path, "SHA256SUMS"), readFileSync(join(release, "SHA256SUMS")));
  good = await serveDir(release);
  bad = await serveDir(tampered.path);
}, 300_000);

afterAll(async () => {
  await good?.close();
  await bad?.close();
  tampered[Symbol.dispose]();
});

describe("install.sh", () => {
  test("--dir: downloads the host's binary, verifies it and installs a working `od`; says where and that it is not on PATH", async () => {
    using home = tempDir("od-install-");
    const dir = join(home.path, "tools");
    const result = await run(["sh", SCRIPT, "--dir", dir], { HOME: home.path, OD_RELEASE_URL: `${good.url}/` });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(good.requests).toContain(NAME);
    expect(result.stdout).toContain(`installed od ${VERSION} as ${dir}/od`);
    expect(result.stdout).toContain(`${dir} is not on your PATH`);
    expect(readdirSync(dir)).toEqual(["od"]);
    expect((await run([join(dir, "od"), "--version"], { HOME: home.path })).stdout).toContain(VERSION);
  }, 120_000);

  test("the release carries the installer: piped from it into sh, it installs the same verified od", async () => {
    using home = tempDir("od-install-");
    const dir = join(home.path, "piped");
    expect(readFileSync(join(release, "install.sh"), "utf8")).toBe(readFileSync(SCRIPT, "utf8"));
    const result = await run(["sh", "-c", `curl -fsSL "${good.url}/install.sh" | sh -s -- --dir "${dir}"`], { HOME: home.path, OD_RELEASE_URL: good.url });
    expect(result.code).toBe(0);
    expect(good.requests).toContain("install.sh");
    expect(result.stdout).toContain(`installed od ${VERSION} as ${dir}/od`);
    expect((await run([join(dir, "od"), "--version"], { HOME: home.path })).stdout).toContain(VERSION);
  }, 120_000);

  test("default folder ~/.local/bin (OD_INSTALL_DIR picks another); says when the folder is on PATH", async () => {
    using home = tempDir("od-install-");
    const byDefault = await run(["sh", SCRIPT], { HOME: home.path, OD_RELEASE_URL: good.url });
    expect(byDefault.code).toBe(0);
    expect(existsSync(join(home.path, ".local", "bin", "od"))).toBe(true);

    const chosen = join(home.path, "chosen");
    const byEnv = await run(["sh", SCRIPT], { HOME: home.path, OD_RELEASE_URL: good.url, OD_INSTALL_DIR: chosen, PATH: `${chosen}:/usr/bin:/bin` });
    expect(byEnv.code).toBe(0);
    expect(byEnv.stdout).toContain(`${chosen} is on your PATH`);
    expect(readdirSync(chosen)).toEqual(["od"]);
  }, 120_000);

  test("a tampered binary is refused with a clear error and nothing installed; an od already there stays", async () => {
    using home = tempDir("od-install-");
    const dir = join(home.path, "bin");
    mkdirSync(dir);
    writeFileSync(join(dir, "od"), "previous od\n");
    const result = await run(["sh", SCRIPT, "--dir", dir], { HOME: home.path, OD_RELEASE_URL: bad.url });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`checksum mismatch for ${NAME}`);
    expect(result.stderr).toContain("nothing was installed");
    expect(readdirSync(dir)).toEqual(["od"]);
    expect(readFileSync(join(dir, "od"), "utf8")).toBe("previous od\n");
  }, 120_000);

  test("a platform the release does not have, and an unknown option, are errors", async () => {
    using home = tempDir("od-install-");
    const missing = await run(["sh", SCRIPT, "--dir", join(home.path, "bin")], { HOME: home.path, OD_RELEASE_URL: good.url, OD_INSTALL_PLATFORM: "plan9-mips" });
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain("the release has no od-plan9-mips");
    expect(readdirSync(join(home.path, "bin"))).toEqual([]);
    const unknown = await run(["sh", SCRIPT, "--bogus"], { HOME: home.path });
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain("unknown option: --bogus");
  }, 60_000);
});
