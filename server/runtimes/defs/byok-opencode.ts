/** BYOK OpenCode: API-key mode through an installed OpenCode; the engine writes the provider config. */
import type { RuntimeAgentDef } from "../types.ts";
import { lazyAgentDef, MULTI_PROVIDER_ENV, resumeIdOf, withDefaultModel } from "./shared.ts";
import { OPENCODE_CAPABILITY_FLAGS, opencodeModelArgs, opencodePermissionArgs } from "./opencode.ts";

export const byokOpencodeAgentDef = lazyAgentDef((): RuntimeAgentDef => ({
  id: "byok-opencode",
  name: "OpenCode (API key)",
  bin: "opencode2",
  fallbackBins: ["opencode-cli", "opencode"],
  versionArgs: ["--version"],
  helpArgs: ["run", "--help"],
  capabilityFlags: OPENCODE_CAPABILITY_FLAGS,
  fallbackModels: withDefaultModel([]),
  supportsCustomModel: true,
  streamFormat: "json-event-stream",
  inheritedEnv: [...MULTI_PROVIDER_ENV, "OPENCODE_API_KEY"],
  eventParser: "opencode",
  promptViaStdin: true,
  externalMcpInjection: "opencode-env-content",
  resumesSessionViaCli: true,
  capturesSessionIdFromStream: true,
  installUrl: "https://opencode.ai/docs/",
  docsUrl: "https://opencode.ai/docs/providers/",
  installCommand: "npm install -g opencode-ai",
  buildArgs: (_prompt, _images, _extraDirs, options = {}, context) => {
    const args = ["run", "--format", "json", ...opencodePermissionArgs(options, context)];
    const resumeId = resumeIdOf(context);
    if (resumeId) args.push("-s", resumeId);
    args.push(...opencodeModelArgs({ model: options.model }, context));
    return args;
  },
}));
