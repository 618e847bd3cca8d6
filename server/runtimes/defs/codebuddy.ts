/** CodeBuddy Code: Claude-compatible `-p` stream-json in and out. */
import type { RuntimeAgentDef } from "../types.ts";
import { capsOf, pushModel, withDefaultModel } from "./shared.ts";

export const codebuddyAgentDef: RuntimeAgentDef = {
  id: "codebuddy",
  name: "CodeBuddy Code",
  bin: "codebuddy",
  versionArgs: ["--version"],
  helpArgs: ["--help"],
  capabilityFlags: { "--include-partial-messages": "partialMessages" },
  fallbackModels: withDefaultModel([]),
  streamFormat: "claude-stream-json",
  promptViaStdin: true,
  promptInputFormat: "stream-json",
  externalMcpInjection: "claude-mcp-json",
  installUrl: "https://www.codebuddy.ai/cli",
  installCommand: "npm install -g @tencent-ai/codebuddy-code",
  buildArgs: (_prompt, _images, extraDirs = [], options = {}, context) => {
    const args = ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose"];
    if (capsOf(context).partialMessages) args.push("--include-partial-messages");
    pushModel(args, "--model", options.model);
    if (extraDirs.length) args.push("--add-dir", ...extraDirs);
    if (options.permissionMode !== "restricted") args.push("--permission-mode", "bypassPermissions", "-y");
    return args;
  },
};
