/**
 * Model lists: the parsers for each CLI's model-listing output (pure, never throw) and the in-process memory of
 * the live models the last detection pass found (used to validate a run's model id and to gate flags).
 */
import type { RuntimeChoice, RuntimeModelOption } from "./types.ts";
import { asRecord, firstString, parseModelLines, tryParseJson, withDefaultModel } from "./defs/shared.ts";

/** Live models by agent id, refreshed by each detection pass. */
export class LiveModelMemory {
  #byAgent = new Map<string, RuntimeModelOption[]>();

  remember(agentId: string, models: RuntimeModelOption[] | null): void {
    if (models && models.length) this.#byAgent.set(agentId, models);
    else this.#byAgent.delete(agentId);
  }

  get(agentId: string): RuntimeModelOption[] | undefined {
    return this.#byAgent.get(agentId);
  }

  /** Whether the id is one the CLI reported (unknown when no live list exists). */
  has(agentId: string, modelId: string): boolean | undefined {
    const models = this.#byAgent.get(agentId);
    return models ? models.some((model) => model.id === modelId) : undefined;
  }
}

/** A list counts as live only if it offers something beyond the default entry. */
function liveOrNull(models: RuntimeModelOption[]): RuntimeModelOption[] | null {
  return models.some((model) => model.id !== "default") ? withDefaultModel(models) : null;
}

function toChoice(value: unknown): RuntimeChoice | undefined {
  if (typeof value === "string" && value) return { id: value, label: value };
  const record = asRecord(value);
  if (!record) return undefined;
  const id = firstString(record, ["id", "effort", "value"]);
  if (!id) return undefined;
  const label = firstString(record, ["name", "label", "display_name"]) ?? id;
  return record.default === true ? { id, label, default: true } : { id, label };
}

function listOf(parsed: unknown, key = "models"): unknown[] | undefined {
  if (Array.isArray(parsed)) return parsed;
  const inner = asRecord(parsed)?.[key];
  return Array.isArray(inner) ? inner : undefined;
}

/** `codex debug models`: JSON array or `{models}` of `{slug|id, display_name|name, visibility, …}`. */
export function parseCodexDebugModels(stdout: string): RuntimeModelOption[] | null {
  const entries = listOf(tryParseJson(stdout.trim()));
  if (!entries) return null;
  const models: RuntimeModelOption[] = [];
  for (const entry of entries) {
    const record = asRecord(entry);
    // The reference read `hidden`; codex 0.171 writes `hide`.
    if (!record || record.visibility === "hidden" || record.visibility === "hide") continue;
    const id = firstString(record, ["slug", "id"]);
    if (!id) continue;
    const model: RuntimeModelOption = { id, label: firstString(record, ["display_name", "name"]) ?? id };
    const speedTiers = Array.isArray(record.additional_speed_tiers)
      ? record.additional_speed_tiers.filter((tier): tier is string => typeof tier === "string")
      : [];
    if (speedTiers.length) model.additionalSpeedTiers = speedTiers;
    const serviceTiers = (Array.isArray(record.service_tiers) ? record.service_tiers : [])
      .map(toChoice)
      .filter((tier): tier is RuntimeChoice => Boolean(tier));
    const hasFastTier = serviceTiers.some((tier) => tier.id === "fast" || tier.label.toLowerCase() === "fast");
    if (speedTiers.includes("fast") && !hasFastTier) serviceTiers.push({ id: "fast", label: "Fast" });
    if (serviceTiers.length) model.serviceTierOptions = serviceTiers;
    const levels = (Array.isArray(record.supported_reasoning_levels) ? record.supported_reasoning_levels : [])
      .map(toChoice)
      .filter((level): level is RuntimeChoice => Boolean(level));
    if (levels.length) {
      model.supportedReasoningLevels = levels.map((level) => level.id);
      model.reasoningOptions = levels;
    }
    models.push(model);
  }
  return liveOrNull(models);
}

const OPENCODE_MODEL_LINE = /^[A-Za-z0-9][\w.@-]*\/\S+$/;

/** `opencode models` (one `provider/model` per line) or `models --verbose` (each line followed by a JSON object). */
export function parseOpencodeModels(stdout: string): RuntimeModelOption[] | null {
  const models: RuntimeModelOption[] = [];
  let current: RuntimeModelOption | undefined;
  let json: string[] = [];
  const flush = () => {
    if (!current) return;
    const details = asRecord(tryParseJson(json.join("\n")));
    const label = details ? firstString(details, ["name"]) : undefined;
    if (label) current.label = `${label} (${current.id})`;
    const variants = details ? asRecord(details.variants) : undefined;
    if (variants && Object.keys(variants).length) current.reasoningOptions = Object.keys(variants).map((id) => ({ id, label: id }));
    models.push(current);
  };
  for (const raw of stdout.split(/\r?\n/)) {
    const line = raw.trim();
    if (OPENCODE_MODEL_LINE.test(line) && !line.startsWith("{")) {
      flush();
      current = { id: line, label: line };
      json = [];
    } else if (current && line) {
      json.push(raw);
    }
  }
  flush();
  return liveOrNull(models);
}

/** `pi --list-models`: a whitespace table `provider model context max-out thinking images` → `provider/model`. */
export function parsePiListModels(stdout: string): RuntimeModelOption[] | null {
  const models: RuntimeModelOption[] = [];
  for (const raw of stdout.split(/\r?\n/)) {
    const [provider, model] = raw.trim().split(/\s+/);
    if (!provider || !model || provider.toLowerCase() === "provider") continue;
    if (/^[-=]+$/.test(provider)) continue;
    const id = `${provider}/${model}`;
    if (!models.some((entry) => entry.id === id)) models.push({ id, label: id });
  }
  return liveOrNull(models);
}

/** `cursor-agent models`: `id[ - label]` lines under an `Available models` header. */
export function parseCursorAgentModels(stdout: string): RuntimeModelOption[] | null {
  if (/no models available/i.test(stdout)) return null;
  const cleaned = stdout.replace(/\s*\((current|default)\)\s*$/gim, "");
  const parsed = parseModelLines(cleaned, ["available models", "models"]);
  return parsed ? liveOrNull(parsed) : null;
}

/** `qodercli --list-models`: JSON (array or `{models}` of strings/objects) or a table split on 2+ spaces. */
export function parseQoderModels(stdout: string): RuntimeModelOption[] | null {
  if (/not logged in/i.test(stdout)) return null;
  const entries = listOf(tryParseJson(stdout.trim()));
  const models: RuntimeModelOption[] = [];
  if (entries) {
    for (const entry of entries) {
      if (typeof entry === "string" && entry.trim()) models.push({ id: entry.trim(), label: entry.trim() });
      const record = asRecord(entry);
      const id = record && firstString(record, ["id", "modelId", "model_id", "name"]);
      if (record && id) models.push({ id, label: firstString(record, ["label", "displayName", "display_name", "name"]) ?? id });
    }
    return liveOrNull(models);
  }
  for (const raw of stdout.split(/\r?\n/)) {
    const cells = raw.trim().split(/\s{2,}|\t+/).filter(Boolean);
    const [id, label] = cells;
    if (!id || /^[-=\s|]+$/.test(id) || ["id", "model", "models", "name"].includes(id.toLowerCase())) continue;
    if (/\s/.test(id)) continue;
    models.push({ id, label: label ?? id });
  }
  return liveOrNull(models);
}

const AMR_MEDIA_PREFIXES = ["gpt-image-", "seedance-", "veo-", "imagen-"];
const AMR_PREFERRED = ["deepseek-v4-flash", "deepseek-v3.2", "glm-5.1", "gemini-2.5-flash"];

/** Vela's raw ids (`public_model_glm_5_1`, `vela/…`) → the ids it accepts back (`glm-5.1`). */
export function normalizeAmrModelId(raw: string): string {
  return raw
    .trim()
    .replace(/^public_model_/, "")
    .replace(/^vela\//, "")
    .replace(/(\d)_(?=\d)/g, "$1.")
    .replace(/_/g, "-");
}

/** `vela model list --format json`: `{source, data:[{id}]}`; drops media models, preferred ids first. */
export function parseAmrModels(stdout: string): RuntimeModelOption[] | null {
  const parsed = asRecord(tryParseJson(stdout.trim()));
  const data = listOf(parsed, "data");
  if (!data) return null;
  const ids: string[] = [];
  for (const entry of data) {
    const record = asRecord(entry);
    const raw = typeof entry === "string" ? entry : record && firstString(record, ["id"]);
    if (!raw) continue;
    const id = normalizeAmrModelId(raw);
    if (AMR_MEDIA_PREFIXES.some((prefix) => id.startsWith(prefix)) || ids.includes(id)) continue;
    ids.push(id);
  }
  const rank = (id: string) => {
    const index = AMR_PREFERRED.indexOf(id);
    return index === -1 ? AMR_PREFERRED.length : index;
  };
  ids.sort((a, b) => rank(a) - rank(b));
  return liveOrNull(ids.map((id) => ({ id, label: id })));
}

/** `prime-agent model list`: columns `provider model …` → `provider/model`. */
export const parsePrimeAgentModels = parsePiListModels;

/** `grok models`: one model per line, optional `*`/`-` bullet and `(default)` marker. */
export function parseGrokModels(stdout: string): RuntimeModelOption[] | null {
  const cleaned = stdout
    .split(/\r?\n/)
    .map((line) => line.replace(/^\s*[*•]\s*/, "").replace(/\s*\((current|default)\)\s*$/i, ""))
    .join("\n");
  const parsed = parseModelLines(cleaned, ["available models", "models"]);
  return parsed ? liveOrNull(parsed) : null;
}

/** `dsh --profile open-design --models`: the `models` frame → `provider/id` with per-model reasoning options. */
export function parseDshModels(stdout: string): RuntimeModelOption[] | null {
  for (const line of stdout.split(/\r?\n/)) {
    const frame = asRecord(tryParseJson(line.trim()));
    if (!frame || frame.type !== "models" || !Array.isArray(frame.models)) continue;
    const models: RuntimeModelOption[] = [];
    for (const entry of frame.models) {
      const record = asRecord(entry);
      const provider = record && firstString(record, ["provider"]);
      const id = record && firstString(record, ["id"]);
      if (!record || !provider || !id) continue;
      const name = firstString(record, ["name"]) ?? id;
      const providerName = firstString(record, ["provider_name"]) ?? provider;
      const model: RuntimeModelOption = { id: `${provider}/${id}`, label: `${name} · ${providerName}` };
      const reasoning = (Array.isArray(record.reasoning_options) ? record.reasoning_options : [])
        .map(toChoice)
        .filter((choice): choice is RuntimeChoice => Boolean(choice));
      if (reasoning.length) model.reasoningOptions = reasoning;
      models.push(model);
    }
    return liveOrNull(models);
  }
  return null;
}
