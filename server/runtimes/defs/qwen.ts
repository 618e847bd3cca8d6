/** Qwen Code: prompt on stdin (no `-` sentinel), plain text out. */
import type { RuntimeAgentDef } from "../types.ts";
import { pushModel, withDefaultModel } from "./shared.ts";

export const qwenAgentDef: RuntimeAgentDef = {
  id: "qwen",
  name: "Qwen Code",
  bin: "qwen",
  versionArgs: ["--version"],
  fallbackModels: withDefaultModel(["qwen3-coder-plus", "qwen3-coder-flash"]),
  streamFormat: "plain",
  promptViaStdin: true,
  installUrl: "https://github.com/QwenLM/qwen-code",
  installCommand: "npm install -g @qwen-code/qwen-code",
  buildArgs: (_prompt, _images, _extraDirs, options = {}) => {
    const args = options.permissionMode === "restricted" ? [] : ["--yolo"];
    pushModel(args, "--model", options.model);
    return args;
  },
};
