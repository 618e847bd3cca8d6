/** App preferences (`/api/app-config`): the chosen agent, per-agent model/reasoning and env, and the theme. */
import { computed, signal } from "@preact/signals";
import { applyAppConfigPatch } from "../../server/contracts/app-config-patch.ts";
import type { AppConfig, AppConfigPatch } from "../../server/contracts/app-config.ts";
import { errorMessage, type Api } from "../api/client.ts";

export function createConfigModel(api: Api) {
  const config = signal<AppConfig>({}, { name: "config.value" });
  const error = signal<string | null>(null, { name: "config.error" });
  const theme = computed(() => config.value.theme ?? "system", { name: "config.theme" });

  /** Asks the daemon, or takes `known`: the config it just answered (the page's session check asks for it). */
  async function load(known?: AppConfig): Promise<void> {
    try {
      config.value = known ?? (await api.get<{ config: AppConfig }>("/api/app-config")).config;
    } catch (loadError) {
      error.value = errorMessage(loadError);
    }
  }

  /** Sends a partial update; the daemon merges per-agent maps (`null` removes an agent's entry). */
  async function update(patch: AppConfigPatch): Promise<void> {
    // Applied at once (a model picked and sent at once must go out with the new model), then the daemon's answer wins.
    config.value = applyAppConfigPatch(config.value, patch);
    try {
      config.value = (await api.put<{ config: AppConfig }>("/api/app-config", patch)).config;
      error.value = null;
    } catch (updateError) {
      error.value = errorMessage(updateError);
    }
  }

  /** The stored model/reasoning for an agent. */
  function choiceFor(agentId: string | undefined): { model?: string; reasoning?: string } {
    return (agentId && config.value.agentModels?.[agentId]) || {};
  }

  return { config, error, theme, load, update, choiceFor };
}
export type ConfigModel = ReturnType<typeof createConfigModel>;
