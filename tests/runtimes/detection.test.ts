/** Detection against fake executables on a temp PATH: every failure mode maps to a state, none empties the list. */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../support/temp.ts";
import { fakePath, testDef, writeFakeCli } from "../support/agents-fake-cli.ts";
import { detectAgents, detectAgentsStream } from "../../server/runtimes/detect-all.ts";
import { detectAgent, type DetectionDeps } from "../../server/runtimes/detection.ts";
import { deepseekHarnessAgentDef } from "../../server/runtimes/defs/deepseek-harness.ts";
import { claudeAgentDef } from "../../server/runtimes/defs/claude.ts";
import { opencodeAgentDef } from "../../server/runtimes/defs/opencode.ts";
import type { RuntimeAgentDef } from "../../server/runtimes/types.ts";

const tmp = tempDir("od-detect-");
afterAll(() => tmp[Symbol.dispose]());
const bin = join(tmp.path, "bin");
const home = join(tmp.path, "home");
mkdirSync(home, { recursive: true });

const deps = (extra: Partial<DetectionDeps> = {}): DetectionDeps => ({
  env: { PATH: fakePath(bin), HOME: home },
  homeDir: home,
  timeouts: { versionMs: 500, helpMs: 1000, modelsMs: 1000, authMs: 1000 },
  ...extra,
});

writeFakeCli(bin, "od-fake-exit127", "echo 'exec: node: not found' >&2; exit 127");
writeFakeCli(bin, "od-fake-noexec", "echo 1.0.0", 0o644);
writeFakeCli(bin, "od-fake-rejects", "echo \"error: unknown option '$1'\" >&2; exit 2");
writeFakeCli(bin, "od-fake-hangs", "exec sleep 30");
writeFakeCli(bin, "od-fake-crashes", "kill -SEGV $$");
writeFakeCli(
  bin,
  "od-fake-good",
  `case "$1" in
  --version) echo "good-cli 2.4.1"; echo "extra line";;
  --help) echo "  --trust   trust the workspace"; echo "  --directory X";;
  models) printf 'Available models\\n\\nfast-1 - Fast One\\nslow-2 - Slow Two\\n';;
  status) echo "Not logged in"; exit 1;;
esac`,
);

describe("detectAgent", () => {
  test("missing executable → unavailable, not-installed with searched dirs, fallback models", async () => {
    const { info } = await detectAgent(testDef("missing", { installCommand: "npm i -g missing" }), deps());
    expect(info.state).toBe("unavailable");
    expect(info.available).toBe(false);
    expect(info.diagnostics[0]?.reason).toBe("not-installed");
    expect(info.diagnostics[0]?.searchedDirs).toContain(bin);
    expect(info.diagnostics[0]?.fixActions).toContainEqual({ kind: "copyCommand", command: "npm i -g missing" });
    expect(info.modelsSource).toBe("fallback");
  });

  test("a missing OpenCode names the binary its install gives, the install command and OPENCODE_BIN", async () => {
    const { info } = await detectAgent(opencodeAgentDef(), deps({ env: { PATH: bin, HOME: home } }));
    const missing = info.diagnostics.find((d) => d.reason === "not-installed");
    // `npm install -g opencode-ai` installs `opencode`; od looks for `opencode-cli` first.
    expect(missing?.message).toContain("`opencode`");
    expect(missing?.detail).toBe("Install it with `npm install -g opencode-ai`, or set OPENCODE_BIN to the full path of the executable.");
  });

  test("exit 127 (a shim whose target is gone) → unavailable, not-invocable", async () => {
    const { info } = await detectAgent(testDef("exit127"), deps());
    expect(info.state).toBe("unavailable");
    expect(info.path).toBe(join(bin, "od-fake-exit127"));
    expect(info.diagnostics.map((d) => d.reason)).toEqual(["not-invocable"]);
  });

  test("a file without the execute bit → unavailable, not-invocable (EACCES)", async () => {
    const { info } = await detectAgent(testDef("noexec"), deps());
    expect(info.state).toBe("unavailable");
    expect(info.diagnostics[0]?.reason).toBe("not-invocable");
    expect(info.diagnostics[0]?.detail).toContain("EACCES");
  });

  test("a CLI that rejects --version stays available with no version", async () => {
    const { info } = await detectAgent(testDef("rejects"), deps());
    expect(info.state).toBe("available");
    expect(info.version).toBeNull();
    expect(info.diagnostics).toEqual([]);
  });

  test("a hanging version probe times out (process group killed) and the CLI stays available", async () => {
    const started = performance.now();
    const { info } = await detectAgent(testDef("hangs"), deps());
    expect(performance.now() - started).toBeLessThan(3000);
    expect(info.state).toBe("available");
    expect(info.version).toBeNull();
    expect(info.diagnostics.map((d) => d.reason)).toEqual(["probe-timeout"]);
  });

  test("a crashing CLI stays available with no version", async () => {
    const { info } = await detectAgent(testDef("crashes"), deps());
    expect(info.state).toBe("available");
    expect(info.version).toBeNull();
  });

  test("a healthy CLI: version, capabilities, live models, auth and per-probe timings", async () => {
    const def = testDef("good", {
      helpArgs: ["--help"],
      capabilityFlags: { "--trust": "trust", "--dir": "workspaceDir" },
      listModels: { args: ["models"], parse: (await import("../../server/runtimes/models.ts")).parseCursorAgentModels },
      authProbe: { args: ["status"] },
      loginCommand: "od-fake-good login",
    });
    const { info, capabilities, liveModels } = await detectAgent(def, deps());
    expect(info.version).toBe("good-cli 2.4.1");
    expect(capabilities).toEqual({ trust: true, workspaceDir: false });
    expect(info.modelsSource).toBe("live");
    expect(liveModels?.map((m) => m.id)).toEqual(["default", "fast-1", "slow-2"]);
    expect(info.authStatus).toBe("missing");
    expect(info.diagnostics.find((d) => d.reason === "auth-missing")?.fixActions).toContainEqual({ kind: "copyCommand", command: "od-fake-good login" });
    for (const key of ["version", "help", "models", "auth"] as const) expect(info.probeMs[key]).toBeNumber();
  });

  test("an <ID>_BIN override wins over PATH; an invalid one is reported, not guessed around", async () => {
    const def = testDef("override", { bin: "od-fake-rejects" });
    const good = await detectAgent(def, deps({ env: { PATH: fakePath(bin), HOME: home, OVERRIDE_BIN: join(bin, "od-fake-good") } }));
    expect(good.info.path).toBe(join(bin, "od-fake-good"));
    const bad = await detectAgent(def, deps({ env: { PATH: fakePath(bin), HOME: home, OVERRIDE_BIN: "/nowhere/cli" } }));
    expect(bad.info.state).toBe("unavailable");
    expect(bad.info.diagnostics[0]?.message).toContain("OVERRIDE_BIN");
  });

  test("claude auth short-circuits on an API key without running the probe", async () => {
    writeFakeCli(bin, "od-fake-claude", 'case "$1" in --version) echo 9.9.9;; auth) echo \'{"loggedIn": false}\'; exit 1;; esac');
    const def = { ...claudeAgentDef(), bin: "od-fake-claude", fallbackBins: [], helpArgs: undefined, hiddenCapabilityFlags: undefined };
    const withKey = await detectAgent(def, deps({ env: { PATH: fakePath(bin), HOME: home, ANTHROPIC_API_KEY: "sk-test-not-real" } }));
    expect(withKey.info.authStatus).toBe("ok");
    expect(withKey.info.probeMs.auth).toBe(0);
    const without = await detectAgent(def, deps());
    expect(without.info.authStatus).toBe("missing");
    expect(without.info.authMessage).toContain("claude auth login");
  });
});

describe("DSH compatibility", () => {
  const dshHome = join(tmp.path, "dsh-home");
  writeFakeCli(
    bin,
    "od-fake-dsh",
    `case "$*" in
  --version) echo "0.1.1-rc.2";;
  "--profile open-design --probe") echo '{"v":1,"type":"probe","runtime":"open-design","protocol_version":1,"plugin_version":"0.1.0","compatibility_generation":"g1"}';;
  "--profile open-design --models") echo '{"v":1,"type":"models","runtime":"open-design","models":[{"provider":"deepseek","provider_name":"DeepSeek","id":"deepseek-chat","name":"Chat"}]}';;
esac`,
  );
  const dsh: RuntimeAgentDef = { ...deepseekHarnessAgentDef(), bin: "od-fake-dsh" };
  const env = { PATH: fakePath(bin), HOME: home, DSH_HOME: dshHome };

  test("dsh present but profile missing → setup-required with a setup action; probe not run", async () => {
    const { info } = await detectAgent(dsh, deps({ env }));
    expect(info.state).toBe("setup-required");
    expect(info.available).toBe(false);
    expect(info.diagnostics.find((d) => d.reason === "setup-required")?.fixActions).toContainEqual({ kind: "setup" });
    expect(info.probeMs.compatibility).toBeUndefined();
  });

  test("profile installed and compatible → available, live provider/model ids", async () => {
    mkdirSync(join(dshHome, "profiles", "open-design"), { recursive: true });
    writeFileSync(join(dshHome, "profiles", "open-design", "package.json"), "{}");
    const { info } = await detectAgent(dsh, deps({ env }));
    expect(info.state).toBe("available");
    expect(info.version).toBe("0.1.1-rc.2");
    expect(info.models.map((m) => m.id)).toEqual(["default", "deepseek/deepseek-chat"]);
    expect(info.probeMs.compatibility).toBeNumber();
  });
});

describe("a detection pass", () => {
  test("one broken def never empties the list", async () => {
    const broken = testDef("good", { fetchModels: () => { throw new Error("boom"); } });
    const results = await detectAgents([testDef("missing"), broken, testDef("rejects")], deps());
    expect(results.map((r) => r.info.id)).toEqual(["missing", "good", "rejects"]);
    expect(results[1]?.info.diagnostics[0]?.detail).toContain("boom");
    expect(results[2]?.info.available).toBe(true);
  });

  test("the stream yields in settle order, bounded by the slowest def rather than their sum", async () => {
    // Half a second apart: a loaded CI machine once took over 0.3 s longer to start the fast one than the mid one.
    for (const [name, seconds] of [["slow", "1.0"], ["mid", "0.5"], ["fast", "0"]] as const) {
      writeFakeCli(bin, `od-fake-${name}`, `sleep ${seconds}; echo ${name}`);
    }
    const started = performance.now();
    const order: string[] = [];
    for await (const agent of detectAgentsStream([testDef("slow"), testDef("mid"), testDef("fast")], deps({ timeouts: { versionMs: 3000 } }))) {
      order.push(agent.info.id);
    }
    expect(order).toEqual(["fast", "mid", "slow"]);
    expect(performance.now() - started).toBeLessThan(4000);
  });
});

describe("ACP model discovery", () => {
  test("ACP defs ask the injected discoverer with their ACP argv; a failure keeps the fallback list", async () => {
    writeFakeCli(bin, "od-fake-acp", 'echo "acp-cli 1.0"');
    const def = testDef("acp", { streamFormat: "acp-json-rpc", acpModelDiscovery: { timeoutMs: 1000 }, buildArgs: () => ["acp", "--serve"] });
    const seen: string[][] = [];
    const live = await detectAgent(def, deps({
      discoverAcpModels: async ({ argv }) => {
        seen.push(argv);
        return [{ id: "m1", label: "Model 1" }];
      },
    }));
    expect(seen).toEqual([[join(bin, "od-fake-acp"), "acp", "--serve"]]);
    expect(live.info.modelsSource).toBe("live");
    expect(live.info.models.map((m) => m.id)).toEqual(["default", "m1"]);
    const failed = await detectAgent(def, deps({ discoverAcpModels: async () => { throw new Error("no"); } }));
    expect(failed.info.modelsSource).toBe("fallback");
  });
});
