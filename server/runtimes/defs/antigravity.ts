/** Antigravity (`agy --print`): prompt in argv, continue-style follow-ups, project and extra dirs granted. */
import type { RuntimeAgentDef } from "../types.ts";
import { lazyAgentDef, pushModel, pushRepeated, withDefaultModel } from "./shared.ts";

export const antigravityAgentDef = lazyAgentDef((): RuntimeAgentDef => ({
  id: "antigravity",
  name: "Antigravity",
  bin: "agy",
  versionArgs: ["--version"],
  fallbackModels: withDefaultModel(["gemini-3-pro", "gemini-3-flash", "claude-sonnet-4-5", "gpt-oss-120b"]),
  supportsCustomModel: false,
  streamFormat: "plain",
  inheritedEnv: ["GEMINI_API_KEY", "GOOGLE_API_KEY"],
  maxPromptArgBytes: 30_000,
  installUrl: "https://antigravity.google/",
  buildArgs: (prompt, _images, extraDirs = [], options = {}, context) => {
    const args = ["--print"];
    if (context?.hasPriorAssistantTurn) args.push("-c");
    if (context?.agentLogFilePath) args.push("--log-file", context.agentLogFilePath);
    if (context?.cwd) args.push("--add-dir", context.cwd);
    pushRepeated(args, "--add-dir", extraDirs);
    pushModel(args, "--model", options.model);
    args.push(prompt);
    return args;
  },
}));
