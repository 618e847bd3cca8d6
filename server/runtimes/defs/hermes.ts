/** Hermes Agent over ACP (`hermes acp --accept-hooks`). */
import type { RuntimeAgentDef } from "../types.ts";
import { ACP_MODEL_DISCOVERY, lazyAgentDef, MULTI_PROVIDER_ENV, withDefaultModel } from "./shared.ts";

export const hermesAgentDef = lazyAgentDef((): RuntimeAgentDef => ({
  id: "hermes",
  name: "Hermes Agent",
  bin: "hermes",
  versionArgs: ["--version"],
  fallbackModels: withDefaultModel(["grok-4.1-fast", "grok-4", "openai-codex:gpt-5.2", "openai-codex:gpt-5.1-codex-mini"]),
  streamFormat: "acp-json-rpc",
  inheritedEnv: [...MULTI_PROVIDER_ENV, "NOUS_API_KEY"],
  acpModelDiscovery: ACP_MODEL_DISCOVERY,
  externalMcpInjection: "acp-merge",
  proxyEnvCompatibility: "httpx",
  docsUrl: "https://hermes-agent.nousresearch.com/docs/",
  buildArgs: () => ["acp", "--accept-hooks"],
}));
