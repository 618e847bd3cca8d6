/** Devin for Terminal over ACP (`devin … acp`). */
import type { RuntimeAgentDef } from "../types.ts";
import { ACP_MODEL_DISCOVERY, bypassesPermissions, lazyAgentDef, withDefaultModel } from "./shared.ts";

export const devinAgentDef = lazyAgentDef((): RuntimeAgentDef => ({
  id: "devin",
  name: "Devin for Terminal",
  bin: "devin",
  versionArgs: ["--version"],
  fallbackModels: withDefaultModel(["adaptive", "swe", "opus", "sonnet", "codex", "gpt", "gemini"]),
  streamFormat: "acp-json-rpc",
  inheritedEnv: ["DEVIN_API_KEY"],
  acpModelDiscovery: ACP_MODEL_DISCOVERY,
  externalMcpInjection: "acp-merge",
  resumesSessionViaAcpLoad: true,
  installUrl: "https://cli.devin.ai/",
  docsUrl: "https://docs.devin.ai/",
  installCommand: "curl -fsSL https://cli.devin.ai/install.sh | bash",
  // Headless: no approval prompts, no trust prompt for freshly created project dirs.
  buildArgs: (_prompt, _images, _extraDirs, options = {}) =>
    !bypassesPermissions(options)
      ? ["acp"]
      : ["--permission-mode", "dangerous", "--respect-workspace-trust", "false", "acp"],
}));
