/** Qoder CLI: `qodercli -p` stream-json, absolute extra dirs only, one `--attachment` per image. */
import type { RuntimeAgentDef } from "../types.ts";
import { parseQoderModels } from "../models.ts";
import { bypassesPermissions, isAbsolutePath, lazyAgentDef, pushModel, pushRepeated, withDefaultModel } from "./shared.ts";

export const qoderAgentDef = lazyAgentDef((): RuntimeAgentDef => ({
  id: "qoder",
  name: "Qoder CLI",
  bin: "qodercli",
  versionArgs: ["--version"],
  fallbackModels: withDefaultModel(["lite", "efficient", "auto", "performance", "ultimate"]),
  streamFormat: "qoder-stream-json",
  promptViaStdin: true,
  supportsImagePaths: true,
  listModels: { args: ["--list-models"], timeoutMs: 15_000, parse: parseQoderModels },
  // Qoder owns its login; a PAT in the daemon's env is inherited, never copied into static env.
  inheritedEnv: ["QODER_PERSONAL_ACCESS_TOKEN"],
  installUrl: "https://qoder.com/cli",
  installCommand: "npm install -g @qoder-ai/qodercli",
  buildArgs: (_prompt, imagePaths, extraDirs = [], options = {}, context) => {
    const platform = context?.platform;
    const args = ["-p", "--output-format", "stream-json"];
    if (bypassesPermissions(options)) args.push("--yolo");
    if (context?.cwd) args.push("-w", context.cwd);
    pushModel(args, "--model", options.model);
    pushRepeated(args, "--add-dir", extraDirs.filter((dir) => isAbsolutePath(dir, platform)));
    pushRepeated(args, "--attachment", imagePaths.filter((path) => isAbsolutePath(path, platform)));
    return args;
  },
}));
