/** Mistral Vibe over ACP (`vibe-acp`, no arguments). */
import type { RuntimeAgentDef } from "../types.ts";
import { ACP_MODEL_DISCOVERY, lazyAgentDef, withDefaultModel } from "./shared.ts";

export const vibeAgentDef = lazyAgentDef((): RuntimeAgentDef => ({
  id: "vibe",
  name: "Mistral Vibe",
  bin: "vibe-acp",
  versionArgs: ["--version"],
  fallbackModels: withDefaultModel(["devstral-medium-latest", "devstral-small-latest"]),
  streamFormat: "acp-json-rpc",
  inheritedEnv: ["MISTRAL_API_KEY"],
  acpModelDiscovery: ACP_MODEL_DISCOVERY,
  externalMcpInjection: "acp-merge",
  resumesSessionViaAcpLoad: true,
  installUrl: "https://github.com/mistralai/mistral-vibe",
  installCommand: "uv tool install mistral-vibe",
  buildArgs: () => [],
}));
