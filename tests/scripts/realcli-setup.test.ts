/**
 * Issue #39: the real-CLI install (tests/realcli/setup.ts) says what it installs (package@version), where, its progress
 * and the size and time at the end, and on failure npm's reason. Run here on a small fake package set (local
 * tarballs, no registry) in a temp prefix: the real 2.3 GB cache is never touched.
 */
import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { diskBytes, ensureRealClis, formatBytes, RealCliInstallError } from "../realcli/setup.ts";
import { tempDir } from "../support/temp.ts";

/** A package tarball of `bytes` of payload, as npm packs it (package/…). */
function fakePackage(dir: string, name: string, version: string, bytes: number): string {
  const src = join(dir, `${name}-src`, "package");
  mkdirSync(src, { recursive: true });
  writeFileSync(join(src, "package.json"), JSON.stringify({ name, version }));
  writeFileSync(join(src, "payload.bin"), Buffer.alloc(bytes, 7));
  const tarball = join(dir, `${name}-${version}.tgz`);
  const tar = spawnSync("tar", ["-czf", tarball, "-C", join(dir, `${name}-src`), "package"]);
  if (tar.status !== 0) throw new Error(`tar: ${tar.stderr}`);
  return tarball;
}

// npm must not reach any registry: the fake set is local tarballs, and a dead registry makes any attempt fail fast.
// Silent, as `npm run -s` leaves npm's level for the npm it starts: the reason of a failure is still said.
const offline = { npm_config_registry: "http://127.0.0.1:9/", npm_config_offline: "true", npm_config_update_notifier: "false", npm_config_loglevel: "silent" };

async function withEnv<T>(env: Record<string, string>, body: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  Object.assign(process.env, env);
  try {
    return await body();
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

test("says what and where before it starts, its progress, then the size and time; a rerun says it is up to date", async () => {
  using dir = tempDir("od-realcli-setup-");
  const specs = [fakePackage(dir.path, "fake-cli-a", "1.2.3", 2_000_000), fakePackage(dir.path, "fake-cli-b", "4.5.6", 1_000_000)];
  const prefix = join(dir.path, "prefix");
  const lines: string[] = [];
  const install = await withEnv(offline, () => ensureRealClis({ specs, prefix, report: (line) => lines.push(line), progressEveryMs: 10 }));
  expect(install.reused).toBe(false);
  expect(install.bytes).toBeGreaterThanOrEqual(3_000_000);
  expect(install.bytes).toBe(diskBytes(join(prefix, "node_modules")));
  expect(lines[0]).toBe(`real CLIs: installing 2 packages into ${prefix} with npm: ${specs.join(", ")}`);
  expect(lines.slice(1, -1).every((line) => /^real CLIs: \d+ (KB|MB|GB) on disk so far \(\d+ s\)$/.test(line))).toBe(true);
  expect(lines.length).toBeGreaterThan(2);
  expect(lines.at(-1)).toMatch(new RegExp(`^real CLIs: installed 2 packages, ${formatBytes(install.bytes)}, in [\\d.]+ s into ${prefix}$`));

  const again: string[] = [];
  const reused = await withEnv(offline, () => ensureRealClis({ specs, prefix, report: (line) => again.push(line) }));
  expect(reused.reused).toBe(true);
  expect(again).toEqual([`real CLIs: up to date in ${prefix} (2 packages, ${formatBytes(install.bytes)})`]);
}, 120_000);

test("a failed install throws npm's reason, naming the prefix", async () => {
  using dir = tempDir("od-realcli-setup-");
  const prefix = join(dir.path, "prefix");
  const lines: string[] = [];
  const failure = await withEnv(offline, () => ensureRealClis({ specs: [join(dir.path, "missing-9.9.9.tgz")], prefix, report: (line) => lines.push(line) })).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(RealCliInstallError);
  expect((failure as Error).message).toContain(`npm install of the real CLIs into ${prefix} failed (exit `);
  expect((failure as Error).message).toMatch(/ENOENT|missing-9\.9\.9/);
  expect(lines).toHaveLength(1);
}, 120_000);

test("sizes read as people write them", () => {
  expect(formatBytes(2_312_000_000)).toBe("2.3 GB");
  expect(formatBytes(850_400_000)).toBe("850 MB");
  expect(formatBytes(12_300)).toBe("12 KB");
});
