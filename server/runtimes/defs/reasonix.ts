/** Reasonix over ACP (`reasonix acp`); MCP env passed as a map (≥1.0). */
import type { RuntimeAgentDef } from "../types.ts";
import { ACP_MODEL_DISCOVERY, lazyAgentDef, withDefaultModel } from "./shared.ts";

export const reasonixAgentDef = lazyAgentDef((): RuntimeAgentDef => ({
  id: "reasonix",
  name: "Reasonix",
  bin: "reasonix",
  fallbackBins: ["dsnix"],
  versionArgs: ["--version"],
  fallbackModels: withDefaultModel(["deepseek-v4-pro", "deepseek-v4-flash"]),
  streamFormat: "acp-json-rpc",
  acpModelDiscovery: ACP_MODEL_DISCOVERY,
  externalMcpInjection: "acp-merge",
  acpMcpEnvFormat: "map",
  inheritedEnv: ["REASONIX_ACP_SYSTEM_APPEND", "DEEPSEEK_API_KEY"],
  installUrl: "https://github.com/esengine/DeepSeek-Reasonix",
  docsUrl: "https://esengine.github.io/DeepSeek-Reasonix/",
  buildArgs: () => ["acp"],
}));
