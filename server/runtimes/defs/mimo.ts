/** Xiaomi MiMo over ACP (`mimo acp`); MCP servers through `MIMOCODE_CONFIG_CONTENT`. */
import type { RuntimeAgentDef } from "../types.ts";
import { ACP_MODEL_DISCOVERY, lazyAgentDef, withDefaultModel } from "./shared.ts";

export const mimoAgentDef = lazyAgentDef((): RuntimeAgentDef => ({
  id: "mimo",
  name: "MiMo Code",
  bin: "mimo",
  versionArgs: ["--version"],
  fallbackModels: withDefaultModel(["xiaomi/mimo-v2-pro", "xiaomi/mimo-v2-flash"]),
  streamFormat: "acp-json-rpc",
  inheritedEnv: ["MIMO_API_KEY", "XIAOMI_API_KEY"],
  installUrl: "https://github.com/XiaomiMiMo/MiMo-Code",
  docsUrl: "https://mimo.xiaomi.com/mimocode",
  acpModelDiscovery: ACP_MODEL_DISCOVERY,
  externalMcpInjection: "mimo-env-content",
  buildArgs: () => ["acp"],
}));
