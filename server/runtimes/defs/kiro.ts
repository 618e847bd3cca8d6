/** Kiro CLI over ACP (`kiro-cli acp`); a `turn_end` update completes the prompt. */
import type { RuntimeAgentDef } from "../types.ts";
import { ACP_MODEL_DISCOVERY, lazyAgentDef, withDefaultModel } from "./shared.ts";

export const kiroAgentDef = lazyAgentDef((): RuntimeAgentDef => ({
  id: "kiro",
  name: "Kiro CLI",
  bin: "kiro-cli",
  versionArgs: ["--version"],
  fallbackModels: withDefaultModel(["auto", "claude-sonnet-4.5", "claude-haiku-4.5"]),
  streamFormat: "acp-json-rpc",
  inheritedEnv: ["KIRO_API_KEY", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"],
  acpModelDiscovery: ACP_MODEL_DISCOVERY,
  externalMcpInjection: "acp-merge",
  resumesSessionViaAcpLoad: true,
  acpTurnEndCompletesPrompt: true,
  installUrl: "https://kiro.dev/cli/",
  buildArgs: () => ["acp"],
}));
