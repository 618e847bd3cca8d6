/**
 * `dsh --profile open-design --models` → the model list od offers. Ids are `provider/model`; each model keeps its
 * own reasoning-effort choices, and only one of those is ever forwarded.
 */
import { ModelsFrame } from "./frames.ts";

/** One selectable model. */
export type DshModel = {
  /** `provider/model`, what a run's `model` must be. */
  id: string;
  /** Display label, e.g. `DeepSeek V4 Pro (DeepSeek)`. */
  label: string;
  /** The reasoning efforts this model accepts (empty: none). */
  reasoningOptions: string[];
};

export type DshModelsParse = { ok: true; models: DshModel[] } | { ok: false; reason: string };

/** Finds the `models` frame in the command's stdout. Never throws. */
export function parseDshModels(stdout: string): DshModelsParse {
  for (const line of stdout.split("\n")) {
    if (!line.trim().startsWith("{")) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    const parsed = ModelsFrame.safeParse(value);
    if (!parsed.success) continue;
    const seen = new Set<string>();
    const models: DshModel[] = [];
    for (const m of parsed.data.models) {
      const id = `${m.provider}/${m.id}`;
      if (seen.has(id)) continue;
      seen.add(id);
      models.push({ id, label: m.provider_name ? `${m.name || m.id} (${m.provider_name})` : m.name || m.id, reasoningOptions: m.reasoning_options ?? [] });
    }
    return { ok: true, models };
  }
  return { ok: false, reason: "no models frame in the profile's output" };
}

/** The effort to forward for `modelId`: the requested one when that model advertises it, else none. */
export function pickReasoningEffort(models: DshModel[], modelId: string | null, requested: string | null): string | null {
  if (!modelId || !requested) return null;
  const model = models.find((m) => m.id === modelId);
  return model?.reasoningOptions.includes(requested) ? requested : null;
}
