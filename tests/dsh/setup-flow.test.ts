/**
 * The whole companion flow against the fake dsh: from "profile missing" to a run, a resumed run and a cancelled
 * run, each through the host transport talking to a real `dsh --profile open-design --stdio` process that loads
 * the installed tarball.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { packDshRuntime } from "../../scripts/pack-dsh-runtime.ts";
import type { AgentEvent } from "../../server/contracts/events.ts";
import { folderDshRuntimeSource, type DshRuntimeSource } from "../../server/dsh/embedded-runtime.ts";
import { dshProfileDir, probeDshProfile, setupDshProfile } from "../../server/dsh/setup.ts";
import { spawnChild } from "../../server/platform/process.ts";
import { startDshProfileSession } from "../../server/runtimes/protocols/dsh-profile/index.ts";
import type { FakeDshScript } from "../fakes/dsh/script.ts";
import { tempDir } from "../support/temp.ts";

const DSH_BIN = join(import.meta.dir, "../fakes/dsh/dsh");
const packDir = tempDir("od-dsh-pack-");
let source: DshRuntimeSource;

beforeAll(async () => {
  await packDshRuntime({ outDir: packDir.path });
  source = folderDshRuntimeSource(packDir.path);
}, 60_000);
afterAll(() => packDir[Symbol.dispose]());

const envFor = (dshHome: string, script: FakeDshScript = {}) => ({ ...process.env, DSH_HOME: dshHome, FAKE_DSH_SCRIPT: JSON.stringify(script) });

/** Every file under `dir` with its contents, to prove "nothing changed". */
function treeOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  const walk = (path: string, rel: string) => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      if (statSync(full).isDirectory()) walk(full, `${rel}${name}/`);
      else out[`${rel}${name}`] = readFileSync(full, "base64");
    }
  };
  walk(dir, "");
  return out;
}

async function runThroughProfile(dshHome: string, options: { prompt: string; resumeSessionId?: string; script?: FakeDshScript; cancelAfterText?: boolean }) {
  const child = await spawnChild({
    argv: [DSH_BIN, "--profile", "open-design", "--stdio"],
    env: envFor(dshHome, options.script),
    stdin: "pipe",
  });
  const session = startDshProfileSession(
    { stdin: child.stdin!, stdout: child.stdout },
    { cwd: dshHome, prompt: options.prompt, model: "deepseek/deepseek-v4-pro", reasoning: "high", resumeSessionId: options.resumeSessionId, requestId: "run-x" },
  );
  const events: AgentEvent[] = [];
  for await (const event of session.events) {
    events.push(event);
    if (options.cancelAfterText && event.type === "text_delta") await session.cancel();
  }
  const result = await session.result;
  const exit = await child.exited;
  return { events, result, exit };
}

const text = (events: AgentEvent[]) => events.flatMap((e) => (e.type === "text_delta" ? [e.delta] : [])).join("");

describe("companion setup with the fake dsh", () => {
  test("missing profile → installed → already-compatible → run, resume, cancel", async () => {
    using home = tempDir("od-dsh-home-");
    const env = envFor(home.path);
    expect((await probeDshProfile({ dshBin: DSH_BIN, dshHome: home.path, env })).compatible).toBe(false);

    expect(await setupDshProfile({ dshBin: DSH_BIN, dshHome: home.path, source, env })).toEqual({
      ok: true,
      action: "installed",
      agent: "deepseek-harness",
      packageVersion: "0.1.0",
    });
    const manifest = (await source.manifest()) as { sha256: string };
    expect(existsSync(join(dshProfileDir(home.path), ".open-design", `${manifest.sha256}.tgz`))).toBe(true);
    expect((await setupDshProfile({ dshBin: DSH_BIN, dshHome: home.path, source, env })).ok && "already-compatible").toBe("already-compatible");

    const first = await runThroughProfile(home.path, { prompt: "build a page" });
    expect(first.result.status).toBe("completed");
    expect(text(first.events)).toBe("turn 1: echo build a page");
    expect(first.events).toContainEqual({ type: "thinking_delta", delta: "considering build a page" });
    expect(first.exit.code).toBe(0);
    const sessionId = first.result.sessionId as string;
    expect(sessionId).toMatch(/^od-/);

    const second = await runThroughProfile(home.path, { prompt: "now blue", resumeSessionId: sessionId });
    expect(second.result).toEqual({ status: "completed", sessionId });
    expect(text(second.events)).toBe("turn 2: echo now blue");

    const rejected = await runThroughProfile(home.path, { prompt: "again", resumeSessionId: "od-unknown" });
    expect(rejected.result.error?.code).toBe("DSH_PROFILE_RESUME_REJECTED");
    expect(rejected.result.sessionId).toBeUndefined();

    const cancelled = await runThroughProfile(home.path, {
      prompt: "long job",
      script: { steps: [{ text: "starting" }, { wait_for_cancel: true }, { text: "never" }] },
      cancelAfterText: true,
    });
    expect(cancelled.result).toEqual({ status: "cancelled", sessionId: expect.stringMatching(/^od-/) });
    expect(text(cancelled.events)).toBe("starting");
  }, 60_000);

  test("an outdated profile is repaired", async () => {
    using home = tempDir("od-dsh-home-");
    const env = envFor(home.path);
    expect((await setupDshProfile({ dshBin: DSH_BIN, dshHome: home.path, source, env })).ok).toBe(true);
    const compat = join(dshProfileDir(home.path), "src", "compatibility.mjs");
    writeFileSync(compat, readFileSync(compat, "utf8").replace('PLUGIN_VERSION = "0.1.0"', 'PLUGIN_VERSION = "0.0.9"'));
    expect(await setupDshProfile({ dshBin: DSH_BIN, dshHome: home.path, source, env })).toMatchObject({ ok: true, action: "repaired" });
    expect(readFileSync(compat, "utf8")).toContain('PLUGIN_VERSION = "0.1.0"');
  }, 60_000);

  test("a tampered tarball is refused and nothing changes", async () => {
    using home = tempDir("od-dsh-home-");
    const tampered: DshRuntimeSource = {
      manifest: () => source.manifest(),
      async readTarball() {
        const bytes = await source.readTarball();
        const copy = bytes.slice();
        copy[copy.length - 1] = (copy[copy.length - 1] ?? 0) ^ 0xff;
        return copy;
      },
    };
    const result = await setupDshProfile({ dshBin: DSH_BIN, dshHome: home.path, source: tampered, env: envFor(home.path) });
    expect(result).toMatchObject({ ok: false, code: "BUNDLED_COMPANION_INVALID" });
    expect(readdirSync(home.path)).toEqual([]);
  }, 60_000);

  test("a failed install restores the previous profile exactly", async () => {
    using home = tempDir("od-dsh-home-");
    expect((await setupDshProfile({ dshBin: DSH_BIN, dshHome: home.path, source, env: envFor(home.path) })).ok).toBe(true);
    const compat = join(dshProfileDir(home.path), "src", "compatibility.mjs");
    writeFileSync(compat, readFileSync(compat, "utf8").replace('"0.1.0"', '"0.0.9"'));
    rmSync(join(dshProfileDir(home.path), ".open-design"), { recursive: true });
    const before = treeOf(join(home.path, "profiles"));
    const result = await setupDshProfile({ dshBin: DSH_BIN, dshHome: home.path, source, env: envFor(home.path, { failInstall: "registry unreachable" }) });
    expect(result).toMatchObject({ ok: false, code: "COMPANION_INSTALL_FAILED", message: expect.stringContaining("registry unreachable") });
    expect(treeOf(join(home.path, "profiles"))).toEqual(before);
  }, 60_000);

  test("still incompatible after install is reported and rolled back", async () => {
    using home = tempDir("od-dsh-home-");
    const result = await setupDshProfile({
      dshBin: DSH_BIN,
      dshHome: home.path,
      source,
      env: envFor(home.path),
      probe: async () => ({ compatible: false, reason: "generation 2 required" }),
    });
    expect(result).toMatchObject({ ok: false, code: "COMPANION_STILL_INCOMPATIBLE" });
    expect(treeOf(join(home.path, "profiles"))).toEqual({});
  }, 60_000);

  test("a missing dsh is AGENT_NOT_INSTALLED", async () => {
    using home = tempDir("od-dsh-home-");
    const result = await setupDshProfile({ dshBin: join(home.path, "no-such-dsh"), dshHome: home.path, source, env: envFor(home.path) });
    expect(result).toMatchObject({ ok: false, code: "AGENT_NOT_INSTALLED" });
  }, 60_000);

  test("concurrent setups share one promise", async () => {
    using home = tempDir("od-dsh-home-");
    const options = { dshBin: DSH_BIN, dshHome: home.path, source, env: envFor(home.path) };
    const a = setupDshProfile(options);
    const b = setupDshProfile(options);
    expect(a).toBe(b);
    expect((await a).ok).toBe(true);
  }, 60_000);
});
