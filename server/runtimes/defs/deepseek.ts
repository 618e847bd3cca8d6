/** DeepSeek TUI: `deepseek exec --auto`, prompt as the last argv element (no stdin sentinel upstream). */
import type { RuntimeAgentDef } from "../types.ts";
import { bypassesPermissions, lazyAgentDef, pushModel, withDefaultModel } from "./shared.ts";

export const deepseekAgentDef = lazyAgentDef((): RuntimeAgentDef => ({
  id: "deepseek",
  name: "DeepSeek TUI",
  bin: "deepseek",
  fallbackBins: ["codewhale"],
  versionArgs: ["--version"],
  fallbackModels: withDefaultModel(["deepseek-flash", "deepseek-v4-pro", "deepseek-v4-flash"]),
  streamFormat: "plain",
  // The prompt rides in argv, so oversized prompts fail early with AGENT_PROMPT_TOO_LARGE.
  maxPromptArgBytes: 30_000,
  inheritedEnv: ["DEEPSEEK_API_KEY"],
  installUrl: "https://github.com/Hmbown/DeepSeek-TUI",
  docsUrl: "https://github.com/Hmbown/DeepSeek-TUI/blob/main/docs/INSTALL.md",
  buildArgs: (prompt, _images, _extraDirs, options = {}) => {
    const args = ["exec"];
    if (bypassesPermissions(options)) args.push("--auto");
    pushModel(args, "--model", options.model);
    args.push(prompt);
    return args;
  },
}));
