/** Kimi CLI over ACP (`kimi acp`); stdio MCP servers are withheld from builds that removed them. */
import type { RuntimeAgentDef } from "../types.ts";
import { ACP_MODEL_DISCOVERY, lazyAgentDef, withDefaultModel } from "./shared.ts";

export const kimiAgentDef = lazyAgentDef((): RuntimeAgentDef => ({
  id: "kimi",
  name: "Kimi CLI",
  bin: "kimi",
  versionArgs: ["--version"],
  fallbackModels: withDefaultModel(["kimi-k2-turbo-preview", "kimi-k2-0905-preview", "kimi-for-coding"]),
  streamFormat: "acp-json-rpc",
  inheritedEnv: ["MOONSHOT_API_KEY", "KIMI_API_KEY"],
  acpModelDiscovery: ACP_MODEL_DISCOVERY,
  externalMcpInjection: "acp-merge",
  acpStdioMcpRemovedInVersion: "0.37.0",
  installUrl: "https://github.com/MoonshotAI/kimi-cli",
  installCommand: "uv tool install --python 3.13 kimi-cli",
  buildArgs: () => ["acp"],
}));
