/** Amp: `amp -x --stream-json` (Claude-compatible stream); its modes are the model choices. */
import type { RuntimeAgentDef } from "../types.ts";
import { bypassesPermissions, lazyAgentDef, pushModel, withDefaultModel } from "./shared.ts";

export const ampAgentDef = lazyAgentDef((): RuntimeAgentDef => ({
  id: "amp",
  name: "Amp",
  bin: "amp",
  versionArgs: ["--version"],
  fallbackModels: withDefaultModel([
    { id: "smart", label: "Smart" },
    { id: "deep", label: "Deep" },
    { id: "rush", label: "Rush" },
  ]),
  supportsCustomModel: false,
  streamFormat: "claude-stream-json",
  inheritedEnv: ["AMP_API_KEY"],
  promptViaStdin: true,
  promptInputFormat: "text",
  installUrl: "https://ampcode.com/",
  installCommand: "npm install -g @sourcegraph/amp",
  buildArgs: (_prompt, _images, _extraDirs, options = {}) => {
    const args = ["-x", "--stream-json"];
    if (bypassesPermissions(options)) args.push("--dangerously-allow-all");
    pushModel(args, "--mode", options.model);
    return args;
  },
}));
