/** Aider: one-shot `--message <prompt>` with every interactive/git side effect turned off. */
import type { RuntimeAgentDef } from "../types.ts";
import { lazyAgentDef, MULTI_PROVIDER_ENV, pushModel, withDefaultModel } from "./shared.ts";

export const aiderAgentDef = lazyAgentDef((): RuntimeAgentDef => ({
  id: "aider",
  name: "Aider",
  bin: "aider",
  versionArgs: ["--version"],
  fallbackModels: withDefaultModel(["sonnet", "gpt-4o", "deepseek/deepseek-chat", "gemini/gemini-2.0-flash"]),
  streamFormat: "plain",
  inheritedEnv: [...MULTI_PROVIDER_ENV],
  maxPromptArgBytes: 30_000,
  proxyEnvCompatibility: "httpx",
  installUrl: "https://aider.chat/docs/install.html",
  installCommand: "python -m pip install aider-install && aider-install",
  buildArgs: (prompt, _images, _extraDirs, options = {}) => {
    const args = [
      "--yes-always",
      "--no-pretty",
      "--no-git",
      "--no-auto-commits",
      "--no-suggest-shell-commands",
      "--no-show-model-warnings",
    ];
    pushModel(args, "--model", options.model);
    args.push("--message", prompt);
    return args;
  },
}));
