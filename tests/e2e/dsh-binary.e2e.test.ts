/**
 * The built binary carries the DSH profile: its manifest is the one packed from server/dsh-runtime, its embedded
 * tarball hashes to that manifest, and setup from the binary (CLI and daemon) installs those exact bytes through
 * the user's dsh — run from a folder outside the source tree, so nothing can come from dist/ on disk.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { chmodSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { DshRuntimeManifest } from "../../server/dsh/manifest.ts";
import { dshProfileDir } from "../../server/dsh/setup.ts";
import { spawnChild } from "../../server/platform/process.ts";
import { startDaemonProcess } from "../support/daemon-process.ts";
import { tempDir } from "../support/temp.ts";
import { FAKE_DSH } from "../dsh/dsh-world.ts";
import { binaryCopy } from "./support/binary.ts";

const runtimePackage = JSON.parse(readFileSync(join(import.meta.dir, "..", "..", "server", "dsh-runtime", "package.json"), "utf8")) as { version: string };
let bin: string;
let binDir: string;

beforeAll(async () => {
  const copy = await binaryCopy();
  ({ bin, dir: binDir } = copy);
  chmodSync(bin, 0o755);
}, 180_000);
afterAll(() => {
  if (binDir) rmSync(binDir, { recursive: true, force: true });
});

async function od(args: string[], env: Record<string, string | undefined> = {}) {
  const child = await spawnChild({ argv: [bin, ...args], cwd: binDir, env: { ...process.env, ...env }, stdin: "ignore" });
  const read = async (stream: AsyncIterable<Uint8Array>) => {
    let text = "";
    for await (const chunk of stream) text += new TextDecoder().decode(chunk);
    return text;
  };
  const [stdout, stderr, exit] = await Promise.all([read(child.stdout), read(child.stderr), child.exited]);
  return { stdout, stderr, code: exit.code };
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("the DSH profile inside dist/od", () => {
  test("--print-manifest shows the embedded manifest of the runtime package; --verify-embedded hashes the embedded bytes to it", async () => {
    const printed = await od(["setup", "deepseek-harness", "--print-manifest"]);
    expect(printed.code).toBe(0);
    const manifest = DshRuntimeManifest.parse(JSON.parse(printed.stdout));
    expect(manifest).toMatchObject({ packageName: "@open-design/dsh-runtime", version: runtimePackage.version, file: `open-design-dsh-runtime-${runtimePackage.version}.tgz` });

    const verified = await od(["setup", "deepseek-harness", "--verify-embedded"]);
    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.stdout)).toEqual({ ok: true, sha256: manifest.sha256, bytes: expect.any(Number), file: manifest.file, version: manifest.version });
  }, 60_000);

  test("od setup deepseek-harness --json installs the embedded bytes (hashed here, independently) through DSH_BIN", async () => {
    using home = tempDir("od-bin-dsh-home-");
    const manifest = DshRuntimeManifest.parse(JSON.parse((await od(["setup", "deepseek-harness", "--print-manifest"])).stdout));
    const result = await od(["setup", "deepseek-harness", "--json"], { DSH_BIN: FAKE_DSH, DSH_HOME: home.path });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ ok: true, action: "installed", agent: "deepseek-harness", packageVersion: manifest.version });
    const staged = readFileSync(join(dshProfileDir(home.path), ".open-design", `${manifest.sha256}.tgz`));
    expect(sha256(staged)).toBe(manifest.sha256);
  }, 60_000);

  test("the binary's daemon serves POST /api/agents/deepseek-harness/setup from the embedded tarball", async () => {
    using home = tempDir("od-bin-dsh-home-");
    using data = tempDir("od-bin-dsh-data-");
    await using daemon = await startDaemonProcess([bin, "--port", "0", "--no-open", "--data-dir", data.path], {
      cwd: binDir,
      env: { DSH_BIN: FAKE_DSH, DSH_HOME: home.path },
    });
    const response = await fetch(`${daemon.origin}/api/agents/deepseek-harness/setup`, {
      method: "POST",
      headers: { authorization: `Bearer ${daemon.token}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, action: "installed", agent: "deepseek-harness", packageVersion: runtimePackage.version });
  }, 90_000);
});
