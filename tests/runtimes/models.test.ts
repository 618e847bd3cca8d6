/**
 * Model-list parsers. codex `debug models` and opencode `models`/`models --verbose` use real recordings from
 * tests/fixtures/<cli>/; the other CLIs use small realistic samples written here (no recording exists yet).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  LiveModelMemory,
  normalizeAmrModelId,
  parseAmrModels,
  parseCodexDebugModels,
  parseCursorAgentModels,
  parseDshModels,
  parseGrokModels,
  parseOpencodeModels,
  parsePiListModels,
  parsePrimeAgentModels,
  parseQoderModels,
} from "../../server/runtimes/models.ts";

const fixture = (cli: string, name: string) => readFileSync(join(import.meta.dir, "..", "fixtures", cli, name), "utf8");

describe("codex debug models (recorded, codex 0.171.0)", () => {
  const models = parseCodexDebugModels(fixture("codex", "debug-models.json"));
  test("lists visible models after the default entry, skipping hidden ones", () => {
    expect(models?.[0]?.id).toBe("default");
    const ids = models?.map((m) => m.id) ?? [];
    expect(ids).toContain("gpt-5.5");
    expect(ids).not.toContain("codex-auto-review");
    expect(ids).not.toContain("gpt-daybreak-blue-latest");
    expect(ids).toHaveLength(12);
  });
  test("carries reasoning levels and the CLI's own fast service tier", () => {
    const gpt55 = models?.find((m) => m.id === "gpt-5.5");
    expect(gpt55?.label).toBe("GPT-5.5");
    expect(gpt55?.supportedReasoningLevels).toEqual(["low", "medium", "high", "xhigh"]);
    expect(gpt55?.additionalSpeedTiers).toEqual(["fast"]);
    expect(gpt55?.serviceTierOptions).toEqual([{ id: "priority", label: "Fast" }]);
  });
  test("a fast speed tier without a declared tier becomes {fast, Fast}; junk → null", () => {
    const parsed = parseCodexDebugModels(JSON.stringify([{ slug: "m", additional_speed_tiers: ["fast"] }]));
    expect(parsed?.[1]?.serviceTierOptions).toEqual([{ id: "fast", label: "Fast" }]);
    expect(parseCodexDebugModels("not json")).toBeNull();
    expect(parseCodexDebugModels("[]")).toBeNull();
  });
});

describe("opencode models (recorded, opencode 1.18.33)", () => {
  test("plain list", () => {
    const models = parseOpencodeModels(fixture("opencode", "models.txt"));
    expect(models?.map((m) => m.id)).toEqual(
      ["default", ...fixture("opencode", "models.txt").split("\n").map((l) => l.trim()).filter(Boolean)],
    );
  });
  test("--verbose: names and variants become labels and reasoning options", () => {
    const models = parseOpencodeModels(fixture("opencode", "models-verbose.txt"));
    expect(models).toHaveLength(11);
    expect(models?.find((m) => m.id === "opencode/big-pickle")?.label).toBe("Big Pickle (opencode/big-pickle)");
    expect(models?.find((m) => m.id === "opencode/big-pickle")?.reasoningOptions).toBeUndefined();
    const withVariants = models?.find((m) => m.reasoningOptions?.length);
    expect(withVariants?.reasoningOptions?.map((r) => r.id)).toContain("high");
  });
});

describe("samples (no recording available)", () => {
  test("pi --list-models table → provider/model", () => {
    const out = "provider   model              context  max-out  thinking  images\nanthropic  claude-sonnet-4-5  200K     64K      yes       yes\nfakellm    fake-model         128K     8.2K     yes       no\n";
    expect(parsePiListModels(out)?.map((m) => m.id)).toEqual(["default", "anthropic/claude-sonnet-4-5", "fakellm/fake-model"]);
    expect(parsePiListModels("provider model\n")).toBeNull();
  });
  test("cursor-agent models", () => {
    const out = "Available models\n\nauto - Auto\ngpt-5 - GPT-5 (current)\nsonnet-4.5 - Claude 4.5 Sonnet\n";
    expect(parseCursorAgentModels(out)).toEqual([
      { id: "default", label: "Default (CLI config)" },
      { id: "auto", label: "Auto" },
      { id: "gpt-5", label: "GPT-5" },
      { id: "sonnet-4.5", label: "Claude 4.5 Sonnet" },
    ]);
    expect(parseCursorAgentModels("No models available for this account.")).toBeNull();
  });
  test("qoder: JSON objects, JSON strings, tables, and not-logged-in", () => {
    expect(parseQoderModels('{"models":[{"modelId":"lite","displayName":"Lite"},"auto"]}')?.map((m) => m.id)).toEqual(["default", "lite", "auto"]);
    expect(parseQoderModels("ID          NAME\nperformance  Performance tier\nultimate    Ultimate\n")?.map((m) => m.label)).toEqual([
      "Default (CLI config)", "Performance tier", "Ultimate",
    ]);
    expect(parseQoderModels("Error: Not logged in. Run qodercli login.")).toBeNull();
  });
  test("amr: id normalisation, media models dropped, preferred order", () => {
    expect(normalizeAmrModelId("public_model_glm_5_1")).toBe("glm-5.1");
    expect(normalizeAmrModelId("vela/deepseek_v4_flash")).toBe("deepseek-v4-flash");
    const out = JSON.stringify({ source: "remote", data: [{ id: "kimi_k2" }, { id: "gpt-image-1" }, { id: "public_model_deepseek_v3_2" }, { id: "vela/deepseek_v4_flash" }] });
    expect(parseAmrModels(out)?.map((m) => m.id)).toEqual(["default", "deepseek-v4-flash", "deepseek-v3.2", "kimi-k2"]);
    expect(parseAmrModels("{}")).toBeNull();
  });
  test("prime-agent and grok", () => {
    expect(parsePrimeAgentModels("PROVIDER  MODEL\nopenai    gpt-5\n")?.map((m) => m.id)).toEqual(["default", "openai/gpt-5"]);
    expect(parseGrokModels("Available models:\n* grok-code-fast-1 (default)\n* grok-4\n")?.map((m) => m.id)).toEqual(["default", "grok-code-fast-1", "grok-4"]);
  });
  test("dsh models frame with per-model reasoning", () => {
    const frame = { v: 1, type: "models", runtime: "open-design", models: [{ provider: "deepseek", provider_name: "DeepSeek", id: "deepseek-reasoner", name: "Reasoner", reasoning_options: [{ id: "high", name: "High", default: true }] }] };
    expect(parseDshModels(`noise\n${JSON.stringify(frame)}\n`)?.[1]).toEqual({
      id: "deepseek/deepseek-reasoner", label: "Reasoner · DeepSeek", reasoningOptions: [{ id: "high", label: "High", default: true }],
    });
  });
});

test("live model memory", () => {
  const memory = new LiveModelMemory();
  expect(memory.has("codex", "x")).toBeUndefined();
  memory.remember("codex", [{ id: "x", label: "x" }]);
  expect(memory.has("codex", "x")).toBe(true);
  memory.remember("codex", null);
  expect(memory.get("codex")).toBeUndefined();
});
