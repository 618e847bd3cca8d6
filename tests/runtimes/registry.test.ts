/** The registry's invariants and local profiles (valid, colliding id, unknown base, bad env key, unreadable file). */
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { assertUniqueAgentIds, BASE_AGENT_IDS, baseAgentDef, baseAgentDefs, getAgentDef, loadAgentDefs } from "../../server/runtimes/registry.ts";
import { lazyAgentDef } from "../../server/runtimes/defs/shared.ts";
import { localProfilesPath, parseLocalProfiles, readLocalAgentProfileDefs } from "../../server/runtimes/local-profiles.ts";
import { tempDir } from "../support/temp.ts";
import { testDef } from "../support/agents-fake-cli.ts";

const SPEC_ORDER = [
  "amr", "claude", "codex", "devin", "opencode", "byok-opencode", "hermes", "trae-cli", "grok-build", "kimi",
  "cursor-agent", "qwen", "qoder", "copilot", "amp", "pi", "kiro", "kilo", "vibe", "deepseek", "deepseek-harness",
  "aider", "antigravity", "reasonix", "prime-agent", "codebuddy", "mimo", "atomcode",
];

describe("registry", () => {
  test("ships the 28 defs in the reference order", () => {
    expect(baseAgentDefs().map((def) => def.id)).toEqual(SPEC_ORDER);
  });
  test("each listed id is its def's own, and a def is built once", () => {
    expect(BASE_AGENT_IDS).toEqual(SPEC_ORDER);
    for (const id of BASE_AGENT_IDS) {
      expect(baseAgentDef(id)?.id).toBe(id);
      expect(baseAgentDef(id)).toBe(baseAgentDef(id)!);
    }
    expect(baseAgentDef("nope")).toBeUndefined();
  });
  test("a def is built when first asked for, not when its module loads", () => {
    let builds = 0;
    const def = lazyAgentDef(() => ({ ...testDef("lazy"), name: `built ${++builds}` }));
    expect(builds).toBe(0);
    expect(def().name).toBe("built 1");
    expect(def()).toBe(def());
    expect(builds).toBe(1);
  });
  test("every shipped def file exports its def built on first use (od run builds its agent's alone)", () => {
    const dir = join(import.meta.dir, "..", "..", "server", "runtimes", "defs");
    const eager = readdirSync(dir)
      .filter((name) => name.endsWith(".ts"))
      .filter((name) => {
        const text = readFileSync(join(dir, name), "utf8");
        return /^export const \w+AgentDef\b/m.test(text) && !/^export const \w+AgentDef = lazyAgentDef\(/m.test(text);
      });
    expect(eager).toEqual([]);
    expect(readdirSync(dir).filter((name) => /^export const \w+AgentDef = lazyAgentDef\(/m.test(readFileSync(join(dir, name), "utf8")))).toHaveLength(SPEC_ORDER.length);
  });
  test("duplicate ids are refused with the reference message", () => {
    expect(() => assertUniqueAgentIds([testDef("a"), testDef("b"), testDef("a")])).toThrow("Duplicate agent definition id: a");
    expect(() => assertUniqueAgentIds(baseAgentDefs())).not.toThrow();
  });
  test("every def says how to get it: an install command, an install page or its docs (issue #39)", () => {
    const withoutWay = baseAgentDefs().filter((def) => !def.installCommand && !def.installUrl && !def.docsUrl).map((def) => def.id);
    expect(withoutWay).toEqual([]);
    for (const def of baseAgentDefs()) {
      for (const url of [def.installUrl, def.docsUrl]) if (url) expect(url).toMatch(/^https:\/\/[^\s]+$/);
    }
  });
  test("getAgentDef", () => {
    expect(getAgentDef("codex")?.name).toBe("Codex");
    expect(getAgentDef("nope")).toBeUndefined();
  });
  test("ACP agents speak acp-json-rpc; plain ones plain", () => {
    const byFormat = (format: string) => baseAgentDefs().filter((def) => def.streamFormat === format).map((def) => def.id).sort();
    expect(byFormat("acp-json-rpc")).toEqual(["amr", "devin", "hermes", "kilo", "kimi", "kiro", "mimo", "reasonix", "trae-cli", "vibe"]);
    expect(byFormat("plain")).toEqual(["aider", "antigravity", "atomcode", "deepseek", "grok-build"]);
    expect(byFormat("claude-stream-json")).toEqual(["amp", "claude", "codebuddy", "qwen"]);
  });
});

describe("local profiles", () => {
  const file = "/cfg/agents.local.json";

  test("a valid entry extends its base: prefix args, env, models with default first, defaultModel", () => {
    const text = JSON.stringify({
      agents: [{ id: "work-claude", name: "Work Claude", bin: "claude-work", args: ["--settings", "w.json"], env: { CLAUDE_CONFIG_DIR: "/w", RETRIES: 2 }, models: ["opus", { id: "sonnet", label: "Sonnet" }], defaultModel: "opus" }],
    });
    const { defs, diagnostics } = parseLocalProfiles(text, baseAgentDefs(), file);
    expect(diagnostics).toEqual([]);
    const def = defs[0];
    if (!def) throw new Error("no profile");
    expect(def).toMatchObject({ id: "work-claude", name: "Work Claude", bin: "claude-work", streamFormat: "claude-stream-json", env: { CLAUDE_CONFIG_DIR: "/w", RETRIES: "2" } });
    expect(def.fallbackBins).toBeUndefined();
    expect(def.fallbackModels.map((m) => m.id)).toEqual(["default", "opus", "sonnet"]);
    expect(def.authProbe?.classifierAgentId).toBe("claude");
    expect(def.buildArgs("p", [], [], {}, {}).slice(0, 3)).toEqual(["--settings", "w.json", "-p"]);
    expect(def.buildArgs("p", [], [], {}, {})).toContain("opus");
    expect(def.buildArgs("p", [], [], { model: "sonnet" }, {})).not.toContain("opus");
  });

  test("bad entries are skipped with a diagnostic naming the file and the entry", () => {
    const text = JSON.stringify([
      { id: "codex" },
      { id: "x1", baseAgent: "nope" },
      { id: "x2", env: { "BAD-KEY": "1" } },
      { id: "bad id!" },
      { id: "ok-one", baseAgent: "codex" },
      { id: "ok-one" },
    ]);
    const { defs, diagnostics } = parseLocalProfiles(text, baseAgentDefs(), file);
    expect(defs.map((def) => def.id)).toEqual(["ok-one"]);
    expect(diagnostics.map((d) => d.reason)).toEqual(Array(5).fill("profile-invalid"));
    expect(diagnostics[0]?.message).toBe(`${file}: entry 0 (codex): id codex collides with an existing agent`);
    expect(diagnostics[1]?.message).toContain("unknown baseAgent");
    expect(diagnostics[2]?.message).toContain('invalid env key "BAD-KEY"');
    expect(diagnostics[4]?.message).toContain("entry 5 (ok-one)");
  });

  test("file location, missing file, unreadable file and broken JSON never throw", () => {
    using dir = tempDir("od-profiles-");
    expect(localProfilesPath({ OD_DATA_DIR: dir.path })).toBe(join(dir.path, "agents.local.json"));
    expect(localProfilesPath({ OD_AGENT_PROFILES_CONFIG: "/x.json", OD_DATA_DIR: dir.path })).toBe("/x.json");
    expect(readLocalAgentProfileDefs(baseAgentDefs, { OD_DATA_DIR: dir.path })).toMatchObject({ defs: [], diagnostics: [] });

    const asDir = join(dir.path, "as-dir.json");
    mkdirSync(asDir);
    const unreadable = readLocalAgentProfileDefs(baseAgentDefs, { OD_AGENT_PROFILES_CONFIG: asDir });
    expect(unreadable.defs).toEqual([]);
    expect(unreadable.diagnostics[0]?.message).toContain("cannot be read");

    const broken = join(dir.path, "broken.json");
    writeFileSync(broken, "{ nope");
    chmodSync(broken, 0o644);
    expect(readLocalAgentProfileDefs(baseAgentDefs, { OD_AGENT_PROFILES_CONFIG: broken }).diagnostics[0]?.message).toContain("not valid JSON");
  });

  test("loadAgentDefs appends profiles after the shipped defs", () => {
    using dir = tempDir("od-profiles-");
    writeFileSync(join(dir.path, "agents.local.json"), JSON.stringify([{ id: "my-pi", baseAgent: "pi" }]));
    const { defs } = loadAgentDefs({ OD_DATA_DIR: dir.path });
    expect(defs.map((def) => def.id).slice(-2)).toEqual(["atomcode", "my-pi"]);
  });

  test("loadAgentDefs with only some ids: those shipped defs and profiles, in the order asked, unknown ids left out", () => {
    using dir = tempDir("od-profiles-");
    expect(loadAgentDefs({ OD_DATA_DIR: dir.path }, ["codex", "nope", "claude"]).defs.map((def) => def.id)).toEqual(["codex", "claude"]);
    writeFileSync(join(dir.path, "agents.local.json"), JSON.stringify([{ id: "my-pi", baseAgent: "pi" }, { id: "my-claude" }]));
    const { defs } = loadAgentDefs({ OD_DATA_DIR: dir.path }, ["my-pi"]);
    expect(defs.map((def) => def.id)).toEqual(["my-pi"]);
    expect(defs[0]?.localProfile?.baseAgentId).toBe("pi");
  });
});
