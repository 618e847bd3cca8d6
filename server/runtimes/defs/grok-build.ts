/** Grok Build: prompt in a file (`--prompt-file`), headless approval, specify-style sessions. */
import type { RuntimeAgentDef } from "../types.ts";
import { parseGrokModels } from "../models.ts";
import { bypassesPermissions, choices, isDefaultChoice, lazyAgentDef, pushModel, resumeIdOf, withDefaultModel } from "./shared.ts";

export const grokBuildAgentDef = lazyAgentDef((): RuntimeAgentDef => ({
  id: "grok-build",
  name: "Grok Build",
  bin: "grok",
  versionArgs: ["--version"],
  helpArgs: ["-p", "--help"],
  fallbackModels: withDefaultModel(["grok-code-fast-1", "grok-4"]),
  reasoningOptions: choices(["low", "medium", "high", "xhigh", "max"], { withDefault: true }),
  streamFormat: "plain",
  inheritedEnv: ["XAI_API_KEY", "GROK_API_KEY"],
  installUrl: "https://x.ai/cli",
  installCommand: "curl -fsSL https://x.ai/cli/install.sh | bash",
  promptViaFile: true,
  resumesSessionViaCli: true,
  listModels: { args: ["models"], timeoutMs: 10_000, parse: parseGrokModels },
  buildArgs: (_prompt, _images, _extraDirs, options = {}, context) => {
    if (!context?.promptFilePath) throw new Error("grok-build needs runtimeContext.promptFilePath");
    const args = ["--prompt-file", context.promptFilePath, "--no-plan"];
    if (bypassesPermissions(options)) args.push("--always-approve");
    const resumeId = resumeIdOf(context);
    if (resumeId) args.push("--resume", resumeId);
    else if (context.newSessionId) args.push("--session-id", context.newSessionId);
    pushModel(args, "--model", options.model);
    if (!isDefaultChoice(options.reasoning)) args.push("--effort", options.reasoning);
    return args;
  },
}));
