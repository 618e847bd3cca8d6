/** AtomCode: prompt in a file (`--prompt-file`), auto-approve with `-y`. */
import type { RuntimeAgentDef } from "../types.ts";
import { bypassesPermissions, lazyAgentDef, MULTI_PROVIDER_ENV, pushModel, withDefaultModel } from "./shared.ts";

export const atomcodeAgentDef = lazyAgentDef((): RuntimeAgentDef => ({
  id: "atomcode",
  name: "AtomCode",
  bin: "atomcode",
  versionArgs: ["--version"],
  fallbackModels: withDefaultModel(["claude-sonnet-4-5", "gpt-5", "glm-4.6", "deepseek-chat"]),
  streamFormat: "plain",
  inheritedEnv: [...MULTI_PROVIDER_ENV],
  installCommand: "npm install -g @atomgit.com/atomcode",
  docsUrl: "https://atomcode.atomgit.com/docs/en/headless-daemon.html",
  promptViaFile: true,
  buildArgs: (_prompt, _images, _extraDirs, options = {}, context) => {
    if (!context?.promptFilePath) throw new Error("atomcode needs runtimeContext.promptFilePath");
    const args = ["--prompt-file", context.promptFilePath];
    if (bypassesPermissions(options)) args.push("-y");
    pushModel(args, "--model", options.model);
    return args;
  },
}));
