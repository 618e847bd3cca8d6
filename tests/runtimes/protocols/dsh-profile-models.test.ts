import { expect, test } from "bun:test";
import { parseDshModels, parseDshProbe, pickReasoningEffort } from "../../../server/runtimes/protocols/dsh-profile/index.ts";

const modelsLine = JSON.stringify({
  v: 1,
  type: "models",
  runtime: "open-design",
  models: [
    { provider: "deepseek", provider_name: "DeepSeek", id: "v4-pro", name: "V4 Pro", reasoning_options: ["low", "high"] },
    { provider: "openrouter", provider_name: "OpenRouter", id: "deepseek/v4-flash", name: "V4 Flash" },
    { provider: "deepseek", provider_name: "DeepSeek", id: "v4-pro", name: "duplicate" },
  ],
});

test("parseDshModels: provider/model ids with each model's own reasoning choices", () => {
  expect(parseDshModels(`noise on stdout\n${modelsLine}\n`)).toEqual({
    ok: true,
    models: [
      { id: "deepseek/v4-pro", label: "V4 Pro (DeepSeek)", reasoningOptions: ["low", "high"] },
      { id: "openrouter/deepseek/v4-flash", label: "V4 Flash (OpenRouter)", reasoningOptions: [] },
    ],
  });
});

test("parseDshModels: no models frame is a typed failure, never a throw", () => {
  expect(parseDshModels("{broken\n")).toEqual({ ok: false, reason: "no models frame in the profile's output" });
  expect(parseDshModels('{"v":1,"type":"models","runtime":"open-design","models":[{"id":1}]}').ok).toBe(false);
});

test("pickReasoningEffort forwards only an advertised choice of the selected model", () => {
  const parsed = parseDshModels(modelsLine);
  if (!parsed.ok) throw new Error("expected models");
  expect(pickReasoningEffort(parsed.models, "deepseek/v4-pro", "high")).toBe("high");
  expect(pickReasoningEffort(parsed.models, "deepseek/v4-pro", "max")).toBeNull();
  expect(pickReasoningEffort(parsed.models, "openrouter/deepseek/v4-flash", "high")).toBeNull();
  expect(pickReasoningEffort(parsed.models, null, "high")).toBeNull();
});

const probe = (fields: Record<string, unknown> = {}) =>
  JSON.stringify({
    v: 1,
    type: "probe",
    runtime: "open-design",
    protocol_version: 1,
    plugin_version: "0.1.0",
    compatibility_generation: "od-dsh-profile:1",
    capabilities: { session_resume: true, session_cancel: true, structured_events: true },
    ...fields,
  });

test("parseDshProbe is strict about runtime, generation, capabilities and version", () => {
  expect(parseDshProbe(probe(), "0.1.0")).toEqual({ compatible: true, pluginVersion: "0.1.0", compatibilityGeneration: "od-dsh-profile:1" });
  expect(parseDshProbe(probe({ protocol_version: 2 })).compatible).toBe(false);
  expect(parseDshProbe(probe({ runtime: "other" })).compatible).toBe(false);
  expect(parseDshProbe(probe({ capabilities: { session_resume: false, session_cancel: true, structured_events: true } })).compatible).toBe(false);
  expect(parseDshProbe(probe({ plugin_version: "0.0.9" }), "0.1.0")).toEqual({
    compatible: false,
    reason: "profile 0.0.9 installed, od ships 0.1.0",
    pluginVersion: "0.0.9",
  });
  expect(parseDshProbe("dsh: profile open-design is not installed")).toEqual({ compatible: false, reason: "no probe frame in the profile's output" });
});
