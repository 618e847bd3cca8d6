/** CodeBuddy Code: Claude-compatible `-p` stream-json in and out. */
import type { RuntimeAgentDef } from "../types.ts";
import { bypassesPermissions, capsOf, lazyAgentDef, pushModel, withDefaultModel } from "./shared.ts";

export const codebuddyAgentDef = lazyAgentDef((): RuntimeAgentDef => ({
  id: "codebuddy",
  name: "CodeBuddy Code",
  bin: "codebuddy",
  versionArgs: ["--version"],
  helpArgs: ["--help"],
  capabilityFlags: { "--include-partial-messages": "partialMessages", "--mcp-config": "mcpConfig" },
  fallbackModels: withDefaultModel([]),
  streamFormat: "claude-stream-json",
  inheritedEnv: ["CODEBUDDY_API_KEY", "TENCENT_API_KEY"],
  promptViaStdin: true,
  promptInputFormat: "stream-json",
  externalMcpInjection: "claude-mcp-json",
  installUrl: "https://www.codebuddy.ai/cli",
  installCommand: "npm install -g @tencent-ai/codebuddy-code",
  buildArgs: (_prompt, _images, extraDirs = [], options = {}, context) => {
    const args = ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose"];
    const caps = capsOf(context);
    if (caps.partialMessages) args.push("--include-partial-messages");
    pushModel(args, "--model", options.model);
    if (caps.mcpConfig !== false && context?.mcpConfigPath) args.push("--mcp-config", context.mcpConfigPath);
    if (extraDirs.length) args.push("--add-dir", ...extraDirs);
    if (bypassesPermissions(options)) args.push("--permission-mode", "bypassPermissions", "-y");
    return args;
  },
}));
