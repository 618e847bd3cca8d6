/**
 * Probe budgets that hold up on a loaded machine: generous defaults, one retry of a timed-out probe, capabilities
 * that survive a timed-out help probe, per-profile limits, and versions read out of chatty version lines.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { detectAgent, type DetectionDeps } from "../../server/runtimes/detection.ts";
import { copilotAgentDef } from "../../server/runtimes/defs/copilot.ts";
import { parseLocalProfiles } from "../../server/runtimes/local-profiles.ts";
import { versionNumberIn } from "../../server/runtimes/version-text.ts";
import { fakePath, testDef, writeFakeCli } from "../support/agents-fake-cli.ts";
import { tempDir } from "../support/temp.ts";

const tmp = tempDir("od-detect-budgets-");
afterAll(() => tmp[Symbol.dispose]());
const bin = join(tmp.path, "bin");
const env = { PATH: fakePath(bin), HOME: tmp.path };
const deps = (extra: Partial<DetectionDeps> = {}): DetectionDeps => ({ env, homeDir: tmp.path, ...extra });

// Each test probes its own fake CLI and mostly waits on its sleeps: they run at the same time.
describe.concurrent("probe budgets", () => {
  test("a version probe slower than the old 3 s limit (gemini, a cold npm loader) is read under the defaults", async () => {
    writeFakeCli(bin, "od-fake-sluggish", `[ "$1" = --version ] && sleep 3.5 && echo "sluggish 0.9.1"`);
    const { info } = await detectAgent(testDef("sluggish"), deps());
    expect(info.version).toBe("sluggish 0.9.1");
    expect(info.diagnostics).toEqual([]);
  }, 20_000);

  test("a version probe that times out once is retried with a longer budget", async () => {
    const calls = join(tmp.path, "flaky-calls");
    // First call hangs past the budget; the second answers at once.
    writeFakeCli(bin, "od-fake-flaky", `echo x >> "${calls}"; [ "$(wc -l < "${calls}")" -gt 1 ] || sleep 5; echo "flaky 1.2.3"`);
    const { info } = await detectAgent(testDef("flaky"), deps({ timeouts: { versionMs: 400 } }));
    expect(info.version).toBe("flaky 1.2.3");
    expect(info.diagnostics).toEqual([]);
    expect((await Bun.file(calls).text()).trim().split("\n")).toHaveLength(2);
  }, 20_000);

  test("a help probe that times out keeps the flags the last complete detection found", async () => {
    writeFakeCli(bin, "od-fake-slowhelp", `case "$1" in --version) echo 1.0;; --help) echo "  --trust"; sleep 5;; --auto) sleep 5;; esac`);
    const def = testDef("slowhelp", {
      helpArgs: ["--help"],
      capabilityFlags: { "--trust": "trust", "--auto": "autoApprove", "--gone": "gone" },
      hiddenCapabilityFlags: { probeArgsPrefix: [], flags: { "--auto": "hiddenAuto" } },
    });
    const lastGood = { capabilities: { trust: true, autoApprove: true, gone: false, hiddenAuto: true, unrelated: true } };
    const { capabilities, info } = await detectAgent(def, deps({ timeouts: { helpMs: 300 }, lastGood: (id) => (id === "slowhelp" ? lastGood : undefined) }));
    expect(capabilities).toEqual({ trust: true, autoApprove: true, gone: false, hiddenAuto: true });
    expect(info.diagnostics.map((d) => d.reason)).toEqual(["probe-timeout"]);
  }, 20_000);

  test("a local profile's probeTimeouts win over the defaults and the base agent's own limits", async () => {
    writeFakeCli(bin, "od-fake-profiled", `[ "$1" = --version ] && sleep 3 && echo "profiled 1.0"`);
    const shipped = [testDef("base", { versionProbeTimeoutMs: 15_000 })];
    const parsed = parseLocalProfiles(
      JSON.stringify([{ id: "quick", baseAgent: "base", bin: "od-fake-profiled", probeTimeouts: { versionMs: 200, modelsMs: 90_000 } }]),
      shipped,
      "agents.local.json",
    );
    expect(parsed.diagnostics).toEqual([]);
    const profile = parsed.defs[0]!;
    expect(profile.probeTimeouts).toEqual({ versionMs: 200, modelsMs: 90_000 });
    const started = performance.now();
    const { info } = await detectAgent(profile, deps());
    // 200 ms, then one retry of 400 ms: far below the 3 s the CLI takes and the base agent's 15 s.
    expect(performance.now() - started).toBeLessThan(2500);
    expect(info.version).toBeNull();
    expect(info.diagnostics[0]?.message).toContain("400 ms");
  }, 20_000);

  test("a bad probeTimeouts skips the profile with a diagnostic", () => {
    const parsed = parseLocalProfiles(JSON.stringify([{ id: "bad", baseAgent: "base", probeTimeouts: { versionMs: "soon" } }]), [testDef("base")], "f.json");
    expect(parsed.defs).toEqual([]);
    expect(parsed.diagnostics[0]?.message).toContain("probeTimeouts");
  });
});

describe("version lines", () => {
  test("the version number is read out of a sentence", () => {
    expect(versionNumberIn("GitHub Copilot CLI 1.0.102.")).toBe("1.0.102");
    expect(versionNumberIn("tool v2.3.0-rc.1 (build abc)")).toBe("2.3.0-rc.1");
    expect(versionNumberIn("no version here")).toBeNull();
  });

  test("copilot reports 1.0.102 for `GitHub Copilot CLI 1.0.102.`", async () => {
    writeFakeCli(bin, "od-fake-copilot", `[ "$1" = --version ] && printf 'GitHub Copilot CLI 1.0.102.\\nRun copilot update to check for updates.\\n'`);
    const { info } = await detectAgent({ ...copilotAgentDef(), bin: "od-fake-copilot" }, deps());
    expect(info.version).toBe("1.0.102");
  });
});
