/**
 * Reading model choices out of ACP session results: the `models` block (`availableModels`, `currentModelId`) and
 * `configOptions` entries whose id names a model. Pure functions.
 */
import { isRecord } from "../../streams/tool-kind.ts";

/** A model the agent offers. */
export type AcpModelChoice = { id: string; label: string; current?: boolean };

const MODEL_OPTION_IDS = new Set(["model", "models", "modelid", "modelids"]);

/** The config option that selects the model, if the session offers one. */
export function modelConfigOption(sessionResult: unknown): Record<string, unknown> | null {
  const options = isRecord(sessionResult) && Array.isArray(sessionResult.configOptions) ? sessionResult.configOptions : [];
  for (const option of options) {
    if (!isRecord(option)) continue;
    const id = typeof option.id === "string" ? option.id.toLowerCase().replace(/[_-]/g, "") : "";
    if (MODEL_OPTION_IDS.has(id) || option.category === "model") return option;
  }
  return null;
}

/** Every model offered by a session/new result (models block first, then the model config option). */
export function availableModels(sessionResult: unknown): AcpModelChoice[] {
  const choices: AcpModelChoice[] = [];
  const seen = new Set<string>();
  const add = (id: unknown, label: unknown, current: boolean) => {
    if (typeof id !== "string" || id === "" || seen.has(id)) return;
    seen.add(id);
    choices.push({ id, label: typeof label === "string" && label !== "" ? label : id, ...(current ? { current } : {}) });
  };
  if (isRecord(sessionResult) && isRecord(sessionResult.models)) {
    const block = sessionResult.models;
    const currentId = block.currentModelId;
    for (const model of Array.isArray(block.availableModels) ? block.availableModels : []) {
      if (isRecord(model)) add(model.modelId ?? model.id, model.name, model.modelId === currentId);
    }
  }
  const option = modelConfigOption(sessionResult);
  if (option) {
    for (const entry of flattenOptions(option.options)) {
      add(entry.value ?? entry.id, entry.name ?? entry.label, entry.value === option.currentValue);
    }
  }
  return choices;
}

function flattenOptions(options: unknown): Record<string, unknown>[] {
  if (!Array.isArray(options)) return [];
  const out: Record<string, unknown>[] = [];
  for (const option of options) {
    if (!isRecord(option)) continue;
    // Grouped select options: { group, name, options: [...] }.
    if (Array.isArray(option.options)) out.push(...flattenOptions(option.options));
    else out.push(option);
  }
  return out;
}
