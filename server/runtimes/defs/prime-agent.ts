/** Prime Agent: pi-compatible RPC; resume by argv, `provider/model` split into two flags. */
import type { RuntimeAgentDef } from "../types.ts";
import { parsePrimeAgentModels } from "../models.ts";
import { choices, isDefaultChoice, isDefaultModel, lazyAgentDef, MULTI_PROVIDER_ENV, resumeIdOf, withDefaultModel } from "./shared.ts";

export const primeAgentDef = lazyAgentDef((): RuntimeAgentDef => ({
  id: "prime-agent",
  name: "Prime Agent",
  bin: "prime-agent",
  versionArgs: ["--version"],
  fallbackModels: withDefaultModel([]),
  reasoningOptions: choices(["off", "minimal", "low", "medium", "high"], { withDefault: true }),
  streamFormat: "pi-rpc",
  inheritedEnv: [...MULTI_PROVIDER_ENV],
  installUrl: "https://github.com/PrimeIntellect-ai/prime-agent",
  piRpcResumeViaProcessArgs: true,
  resumesSessionViaCli: true,
  capturesSessionIdFromStream: true,
  listModels: { args: ["model", "list"], timeoutMs: 15_000, parse: parsePrimeAgentModels },
  buildArgs: (_prompt, _images, _extraDirs, options = {}, context) => {
    const args = ["--mode", "rpc"];
    if (context?.cwd) args.push("--cwd", context.cwd);
    const resumeId = resumeIdOf(context);
    if (resumeId) args.push("--resume", resumeId);
    if (!isDefaultModel(options.model)) {
      const slash = options.model.indexOf("/");
      if (slash > 0) args.push("--provider", options.model.slice(0, slash), "--model", options.model.slice(slash + 1));
      else args.push("--model", options.model);
    }
    if (!isDefaultChoice(options.reasoning)) args.push("--thinking", options.reasoning);
    return args;
  },
}));
