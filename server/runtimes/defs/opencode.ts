/** OpenCode: `opencode run --format json`, prompt on stdin, permission bypass gated on the help probe. */
import type { RuntimeAgentDef, RuntimeBuildOptions, RuntimeContext, RuntimeModelOption } from "../types.ts";
import { parseOpencodeModels } from "../models.ts";
import { bypassesPermissions, capsOf, isDefaultChoice, isDefaultModel, lazyAgentDef, MULTI_PROVIDER_ENV, resumeIdOf, withDefaultModel } from "./shared.ts";

/** `opencode run --help` flags → capability keys (shared with byok-opencode). */
export const OPENCODE_CAPABILITY_FLAGS: Record<string, string> = {
  "--dangerously-skip-permissions": "skipPermissions",
  "--auto": "autoApprove",
  "--dir": "workspaceDir",
  "--variant": "variantFlag",
  "--pure": "pureMode",
};

/** Newest bypass the installed build advertises; nothing when it advertises neither. */
export function opencodePermissionArgs(options: RuntimeBuildOptions, context: RuntimeContext | undefined): string[] {
  if (!bypassesPermissions(options)) return [];
  const caps = capsOf(context);
  if (caps.skipPermissions) return ["--dangerously-skip-permissions"];
  if (caps.autoApprove) return ["--auto"];
  return [];
}

function advertisesVariant(models: RuntimeModelOption[] | undefined, model: string, variant: string): boolean {
  return Boolean(models?.find((entry) => entry.id === model)?.reasoningOptions?.some((choice) => choice.id === variant));
}

/** `-m M`, plus the variant as `--variant V` (builds with the flag) or `-m M#V` (builds without it). */
export function opencodeModelArgs(options: RuntimeBuildOptions, context: RuntimeContext | undefined): string[] {
  if (isDefaultModel(options.model)) return [];
  const model = options.model;
  const variant = options.reasoning;
  if (isDefaultChoice(variant) || !advertisesVariant(context?.liveModels, model, variant)) return ["-m", model];
  if (capsOf(context).variantFlag) return ["-m", model, "--variant", variant];
  return ["-m", `${model}#${variant}`];
}

/** OpenCode's permission keys for what changes something, all denied: its runtime overlay for a read-only run. */
const OPENCODE_READ_ONLY = JSON.stringify({ edit: "deny", bash: "deny", webfetch: "deny", external_directory: "deny" });

export const opencodeAgentDef = lazyAgentDef((): RuntimeAgentDef => ({
  id: "opencode",
  name: "OpenCode",
  // `opencode run` has no channel to ask on; a read-only run's OPENCODE_PERMISSION overlay denies every change, and
  // OpenCode then does not offer those tools at all.
  readOnlyByItself: true,
  permissionEnv: (mode): Record<string, string> => (mode === "read-only" ? { OPENCODE_PERMISSION: OPENCODE_READ_ONLY } : {}),
  bin: "opencode-cli",
  fallbackBins: ["opencode"],
  versionArgs: ["--version"],
  // The real binary boots its runtime even for --version: ~2 s idle, past the 3 s default on a busy machine.
  versionProbeTimeoutMs: 15_000,
  helpArgs: ["run", "--help"],
  capabilityFlags: OPENCODE_CAPABILITY_FLAGS,
  fallbackModels: withDefaultModel([
    { id: "anthropic/claude-sonnet-4-5", label: "Claude Sonnet 4.5 (anthropic)" },
    { id: "openai/gpt-5", label: "GPT-5 (openai)" },
    { id: "opencode/big-pickle", label: "Big Pickle (opencode)" },
  ]),
  streamFormat: "json-event-stream",
  inheritedEnv: [...MULTI_PROVIDER_ENV, "OPENCODE_API_KEY"],
  eventParser: "opencode",
  promptViaStdin: true,
  externalMcpInjection: "opencode-env-content",
  resumesSessionViaCli: true,
  capturesSessionIdFromStream: true,
  fetchModels: async (run) => {
    const verbose = await run(["models", "--verbose"], { timeoutMs: 15_000, maxBytes: 8 * 1024 * 1024 });
    if (verbose && verbose.exitCode === 0) {
      const parsed = parseOpencodeModels(verbose.stdout);
      if (parsed) return parsed;
    }
    const text = `${verbose?.stdout ?? ""}\n${verbose?.stderr ?? ""}`;
    if (verbose && !/Unrecognized flag: --verbose|unknown option/i.test(text)) return null;
    const plain = await run(["models"], { timeoutMs: 15_000, maxBytes: 8 * 1024 * 1024 });
    return plain && plain.exitCode === 0 ? parseOpencodeModels(plain.stdout) : null;
  },
  installUrl: "https://opencode.ai/docs/",
  docsUrl: "https://opencode.ai/docs/cli/",
  installCommand: "npm install -g opencode-ai",
  buildArgs: (_prompt, _images, _extraDirs, options = {}, context) => {
    const args = ["run", "--format", "json", ...opencodePermissionArgs(options, context)];
    if (context?.cwd && capsOf(context).workspaceDir !== false) args.push("--dir", context.cwd);
    const resumeId = resumeIdOf(context);
    if (resumeId) args.push("-s", resumeId);
    args.push(...opencodeModelArgs(options, context));
    return args;
  },
}));
