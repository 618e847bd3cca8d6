/**
 * Codex: default transport `codex app-server` (JSON-RPC; model, sandbox and prompt travel in the protocol), or
 * with `OD_CODEX_TRANSPORT=exec-json` the legacy `codex exec --json` JSONL transport.
 */
import type { EnvMap, RuntimeAgentDef, RuntimeContext, RuntimeTransport } from "../types.ts";
import { parseCodexDebugModels } from "../models.ts";
import { choices, isDefaultChoice, isDefaultModel, lazyAgentDef, pushModel, pushRepeated, resumeIdOf, withDefaultModel } from "./shared.ts";

/** Transport selected by the daemon's environment. */
export function codexTransport(env: EnvMap): RuntimeTransport {
  return env.OD_CODEX_TRANSPORT === "exec-json"
    ? { streamFormat: "json-event-stream", eventParser: "codex" }
    : { streamFormat: "codex-app-server" };
}

/** `danger-full-access` on Windows, WSL, or by operator override; otherwise `workspace-write` with network. */
export function codexSandboxMode(context: Pick<RuntimeContext, "env" | "platform"> | undefined): "danger-full-access" | "workspace-write" {
  const env = context?.env ?? {};
  const platform = context?.platform ?? process.platform;
  if (env.OD_CODEX_SANDBOX === "danger-full-access" || platform === "win32" || env.WSL_DISTRO_NAME) return "danger-full-access";
  return "workspace-write";
}

const REASONING_BY_MODEL: Array<[RegExp, string[]]> = [
  [/^gpt-5\.6(-|$)/, ["low", "medium", "high", "xhigh", "max", "ultra"]],
  [/^gpt-5\.1-codex-mini$/, ["medium", "high"]],
  [/^(gpt-5\.[2-5](-|$)|codex-auto-review)/, ["low", "medium", "high", "xhigh"]],
  [/^gpt-5\.1(-|$)/, ["none", "minimal", "low", "medium", "high"]],
];

/** Throws when a known model does not accept the reasoning level (Codex would fail the turn later). */
export function assertCodexReasoningCompatible(model: string | null | undefined, reasoning: string | null | undefined): void {
  if (isDefaultModel(model) || isDefaultChoice(reasoning)) return;
  const rule = REASONING_BY_MODEL.find(([pattern]) => pattern.test(model));
  if (rule && !rule[1].includes(reasoning)) {
    throw new Error(`Codex model ${model} does not support reasoning effort "${reasoning}" (supported: ${rule[1].join(", ")})`);
  }
}

export const codexAgentDef = lazyAgentDef((): RuntimeAgentDef => ({
  id: "codex",
  name: "Codex",
  bin: "codex",
  versionArgs: ["--version"],
  fallbackModels: withDefaultModel([
    { id: "gpt-5.5", label: "GPT-5.5" },
    { id: "gpt-5.4", label: "GPT-5.4" },
    { id: "gpt-5.2", label: "GPT-5.2" },
    { id: "gpt-5.1-codex-mini", label: "GPT-5.1 Codex Mini" },
  ]),
  reasoningOptions: choices(["low", "medium", "high", "xhigh"], { withDefault: true }),
  streamFormat: "codex-app-server",
  resolveTransport: codexTransport,
  promptViaStdin: true,
  supportsImagePaths: true,
  resumesSessionViaCli: true,
  capturesSessionIdFromStream: true,
  authProbe: { args: ["login", "status"], timeoutMs: 5000 },
  listModels: { args: ["debug", "models"], timeoutMs: 5000, maxBytes: 8 * 1024 * 1024, parse: parseCodexDebugModels },
  // Its workspace-write sandbox (bubblewrap, Landlock) cannot start in a container without user namespaces: asked on
  // each machine with the sandbox's own runner, unless that machine's settings run codex without it.
  sandboxProbe: {
    args: (env) => (codexSandboxMode({ env }) === "danger-full-access" ? null : ["sandbox", "--", "true"]),
    optOut: "OD_CODEX_SANDBOX=danger-full-access",
  },
  inheritedEnv: ["CODEX_API_KEY", "OPENAI_API_KEY", "CODEX_HOME"],
  installUrl: "https://developers.openai.com/codex/cli",
  docsUrl: "https://developers.openai.com/codex/cli/reference",
  installCommand: "npm install -g @openai/codex",
  loginCommand: "codex login",
  buildArgs: (_prompt, imagePaths, extraDirs = [], options = {}, context) => {
    assertCodexReasoningCompatible(options.model, options.reasoning);
    if (codexTransport(context?.env ?? {}).streamFormat === "codex-app-server") return ["app-server"];
    const sandbox = codexSandboxMode(context);
    const disablePlugins = context?.disablePlugins || context?.env?.OD_CODEX_DISABLE_PLUGINS === "1";
    const resumeId = resumeIdOf(context);
    const args: string[] = [];
    if (resumeId) {
      // `exec resume` rejects the create-only --sandbox, -C and --add-dir; the policy goes through -c instead.
      args.push("exec", "resume", "--json", "--skip-git-repo-check", "-c", `sandbox_mode="${sandbox}"`);
      if (sandbox === "workspace-write") args.push("-c", "sandbox_workspace_write.network_access=true");
    } else {
      args.push("exec", "--json", "--skip-git-repo-check", "--sandbox", sandbox);
      if (sandbox === "workspace-write") args.push("-c", "sandbox_workspace_write.network_access=true");
    }
    if (disablePlugins) args.push("--disable", "plugins");
    if (!resumeId) {
      if (context?.cwd) args.push("-C", context.cwd);
      pushRepeated(args, "--add-dir", extraDirs);
    }
    for (const image of imagePaths) args.push(`--image=${image}`);
    pushModel(args, "--model", options.model);
    if (!isDefaultChoice(options.reasoning)) args.push("-c", `model_reasoning_effort="${options.reasoning}"`);
    if (!isDefaultChoice(options.serviceTier)) args.push("-c", `service_tier="${options.serviceTier}"`);
    if (resumeId) args.push(resumeId);
    return args;
  },
}));
