/**
 * DeepSeek Harness detection against the fake dsh: a missing dsh is "install it" (the bootstrap one-liner), a dsh
 * without a usable open-design profile is "setup required" (without touching DSH_HOME), and setup makes it available.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentInfo } from "../../server/contracts/agents.ts";
import { setupDeepseekHarness } from "../../server/dsh/setup-agent.ts";
import { dshProfileDir } from "../../server/dsh/setup.ts";
import { deepseekHarnessAgentDef } from "../../server/runtimes/defs/deepseek-harness.ts";
import { detectAgent } from "../../server/runtimes/detection.ts";
import { dshWorld, FAKE_DSH, packedSource } from "./dsh-world.ts";

const BOOTSTRAP = "curl -fsSL 'https://open-design.ai/install-dsh.sh?version=1' | sh";
const TIMEOUTS = { versionMs: 15_000, helpMs: 15_000, modelsMs: 15_000, authMs: 15_000 };
let packed: Awaited<ReturnType<typeof packedSource>>;
beforeAll(async () => {
  packed = await packedSource();
}, 60_000);
afterAll(() => packed[Symbol.dispose]());

const detect = async (env: Record<string, string | undefined>): Promise<AgentInfo> =>
  (await detectAgent(deepseekHarnessAgentDef(), { env, timeouts: TIMEOUTS })).info;
const setupDiagnostic = (info: AgentInfo) => info.diagnostics.find((d) => d.reason === "setup-required");

describe("deepseek-harness detection", () => {
  test("no dsh anywhere → unavailable, offering the bootstrap installer as a command to copy", async () => {
    await using world = dshWorld({ dshOnPath: false });
    const info = await detect(world.env);
    expect(info.state).toBe("unavailable");
    expect(info.available).toBe(false);
    const missing = info.diagnostics.find((d) => d.reason === "not-installed");
    expect(missing?.fixActions).toContainEqual({ kind: "copyCommand", command: BOOTSTRAP });
    expect(missing?.fixActions).not.toContainEqual({ kind: "setup" });
  });

  test("dsh on PATH without the profile → setup-required with a setup action; no profile probe, DSH_HOME untouched", async () => {
    await using world = dshWorld();
    const info = await detect(world.env);
    expect(info.state).toBe("setup-required");
    expect(info.available).toBe(false);
    expect(info.path).toBe(join(world.binDir, "dsh"));
    expect(info.version).toBe("0.1.2-rc.1");
    expect(info.diagnostics.map((d) => d.reason)).toEqual(["setup-required"]);
    expect(setupDiagnostic(info)?.fixActions).toContainEqual({ kind: "setup" });
    // Preflight failed, so neither `--probe` nor `--models` ran: nothing may have created the profile.
    expect(info.probeMs.compatibility).toBeUndefined();
    expect(info.probeMs.models).toBeUndefined();
    expect(existsSync(world.dshHome)).toBe(false);
  }, 60_000);

  test("DSH_BIN outside PATH is honoured, and so is DSH_HOME: setup there makes it available with live models", async () => {
    await using world = dshWorld({ dshOnPath: false, env: { DSH_BIN: FAKE_DSH } });
    const before = await detect(world.env);
    expect(before.state).toBe("setup-required");
    expect(before.path).toBe(FAKE_DSH);

    expect(await setupDeepseekHarness({ env: world.env, source: packed.source })).toMatchObject({ ok: true, action: "installed" });
    expect(existsSync(join(world.dshHome, "profiles", "open-design", "package.json"))).toBe(true);

    const after = await detect(world.env);
    expect(after.state).toBe("available");
    expect(after.available).toBe(true);
    expect(setupDiagnostic(after)).toBeUndefined();
    expect(after.probeMs.compatibility).toBeNumber();
    expect(after.modelsSource).toBe("live");
    expect(after.models.map((m) => m.id)).toContain("deepseek/deepseek-v4-pro");

    // The same dsh with another DSH_HOME has no profile there.
    const elsewhere = await detect({ ...world.env, DSH_HOME: join(world.dshHome, "..", "other-home") });
    expect(elsewhere.state).toBe("setup-required");
  }, 90_000);

  test("an installed profile speaking another protocol generation → setup-required, explained", async () => {
    await using world = dshWorld();
    expect((await setupDeepseekHarness({ env: world.env, source: packed.source })).ok).toBe(true);
    const compat = join(dshProfileDir(world.dshHome), "src", "compatibility.mjs");
    writeFileSync(compat, readFileSync(compat, "utf8").replace("PROTOCOL_VERSION = 1", "PROTOCOL_VERSION = 2"));
    const info = await detect(world.env);
    expect(info.state).toBe("setup-required");
    expect(setupDiagnostic(info)?.detail).toContain("protocol 2");
    expect(info.probeMs.models).toBeUndefined();
  }, 90_000);
});
