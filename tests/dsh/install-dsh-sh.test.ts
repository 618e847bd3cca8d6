/** install-dsh.sh against a loopback server with fake artifacts: verify-then-install, idempotent, no half state. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { spawnChild } from "../../server/platform/process.ts";
import { DSH_VERSION_POLICY as P } from "../../server/dsh/version-policy.ts";
import { tempDir } from "../support/temp.ts";
import { buildArtifacts, PLATFORM, serveDir, writeSums } from "./install-dsh-fixtures.ts";

const SCRIPT = join(import.meta.dir, "../../scripts/install-dsh.sh");
const good = tempDir("od-dsh-artifacts-");
const bad = tempDir("od-dsh-artifacts-bad-");
let goodServer: Awaited<ReturnType<typeof serveDir>>;
let badServer: Awaited<ReturnType<typeof serveDir>>;

beforeAll(async () => {
  buildArtifacts(good.path);
  const names = buildArtifacts(bad.path);
  writeSums(bad.path, names, { [`dsh-${P.dsh}.tgz`]: "0".repeat(64) });
  goodServer = await serveDir(good.path);
  badServer = await serveDir(bad.path);
}, 60_000);
afterAll(async () => {
  await goodServer.close();
  await badServer.close();
  good[Symbol.dispose]();
  bad[Symbol.dispose]();
});

async function run(argv: string[], env: Record<string, string>) {
  const child = await spawnChild({ argv: ["sh", ...argv], env: { PATH: process.env.PATH, ...env } });
  const decode = async (s: AsyncIterable<Uint8Array>) => {
    let out = "";
    for await (const c of s) out += new TextDecoder().decode(c);
    return out;
  };
  const [stdout, stderr, exit] = await Promise.all([decode(child.stdout), decode(child.stderr), child.exited]);
  return { stdout, stderr, code: exit.code };
}

async function until(check: () => boolean, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}

const envFor = (home: string, url: string) => ({ HOME: home, OD_DSH_BASE_URL: url, OD_DSH_PLATFORM: PLATFORM, XDG_DATA_HOME: join(home, "data") });

test("good sums → a working launcher; rerun downloads nothing", async () => {
  using home = tempDir("od-dsh-install-");
  const env = envFor(home.path, goodServer.url);
  const first = await run([SCRIPT, "--no-launch"], env);
  expect(first.stderr).toBe("");
  expect(first.code).toBe(0);
  const launcher = join(home.path, ".local", "bin", "dsh");
  const version = await run([launcher, "--version"], env);
  expect(version.stdout.trim()).toBe(`dsh ${P.dsh}`);
  expect(readFileSync(launcher, "utf8")).toContain(`node=${P.node} dsh=${P.dsh} pnpm=${P.pnpm}`);

  const before = goodServer.requests.length;
  const again = await run([SCRIPT, "--no-launch"], env);
  expect(again.code).toBe(0);
  expect(again.stdout).toContain("already installed");
  expect(goodServer.requests.length).toBe(before);
  expect((await run([launcher, "--version"], env)).stdout.trim()).toBe(`dsh ${P.dsh}`);
}, 60_000);

test("a bad checksum aborts with nothing installed", async () => {
  using home = tempDir("od-dsh-install-");
  const result = await run([SCRIPT, "--no-launch"], envFor(home.path, badServer.url));
  expect(result.code).not.toBe(0);
  expect(result.stderr).toContain(`checksum mismatch for dsh-${P.dsh}.tgz`);
  expect(existsSync(join(home.path, ".local", "bin", "dsh"))).toBe(false);
  expect(readdirSync(join(home.path, "data", "open-design", "dsh-toolchain"))).toEqual([]);
}, 60_000);

test("without --no-launch it opens the Harness web UI", async () => {
  using home = tempDir("od-dsh-install-");
  const marker = join(home.path, "web-opened");
  const result = await run([SCRIPT], { ...envFor(home.path, goodServer.url), FAKE_DSH_WEB_MARKER: marker });
  expect(result.code).toBe(0);
  await until(() => existsSync(marker), 20_000);
}, 60_000);

test("an unknown option is refused", async () => {
  using home = tempDir("od-dsh-install-");
  const result = await run([SCRIPT, "--bogus"], envFor(home.path, goodServer.url));
  expect(result.code).toBe(1);
  expect(result.stderr).toContain("unknown option: --bogus");
});
