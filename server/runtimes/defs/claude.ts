/** Claude Code: `claude -p` with stream-json in and out; the reference adapter. */
import type { RuntimeAgentDef } from "../types.ts";
import { bypassesPermissions, capsOf, choices, guardsActions, isDefaultChoice, lazyAgentDef, pushModel, resumeIdOf, withDefaultModel } from "./shared.ts";

const EFFORTS = choices(["low", "medium", "high", "xhigh", "max"], { withDefault: true });

/** Each permission question as a `can_use_tool` control request on stdout, answered on stdin. */
const CLAUDE_ASK_ARGS = ["--permission-prompt-tool", "stdio"];

export const claudeAgentDef = lazyAgentDef((): RuntimeAgentDef => ({
  id: "claude",
  name: "Claude Code",
  bin: "claude",
  fallbackBins: ["openclaude"],
  versionArgs: ["--version"],
  helpArgs: ["--help"],
  capabilityFlags: {
    "--include-partial-messages": "partialMessages",
    "--effort": "effort",
    "--add-dir": "addDir",
    "--agents": "agents",
    "--forward-subagent-text": "forwardSubagentText",
    "--mcp-config": "mcpConfig",
  },
  hiddenCapabilityFlags: { probeArgsPrefix: ["-p"], flags: { "--thinking-display": "thinkingDisplay" } },
  fallbackModels: withDefaultModel([
    { id: "sonnet", label: "Sonnet (latest)", reasoningOptions: EFFORTS },
    { id: "opus", label: "Opus (latest)", reasoningOptions: EFFORTS },
    { id: "haiku", label: "Haiku (latest)" },
    { id: "claude-sonnet-4-5", label: "Claude Sonnet 4.5", reasoningOptions: EFFORTS },
    { id: "claude-opus-4-1", label: "Claude Opus 4.1", reasoningOptions: EFFORTS },
  ]),
  reasoningOptions: EFFORTS,
  streamFormat: "claude-stream-json",
  promptViaStdin: true,
  promptInputFormat: "stream-json",
  approvalChannel: "claude-control",
  approvalChannelArgs: CLAUDE_ASK_ARGS,
  externalMcpInjection: "claude-mcp-json",
  resumesSessionViaCli: true,
  authProbe: { args: ["auth", "status"], timeoutMs: 5000 },
  inheritedEnv: ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN", "CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"],
  installUrl: "https://docs.anthropic.com/en/docs/claude-code/setup",
  docsUrl: "https://docs.anthropic.com/en/docs/claude-code/cli-reference",
  installCommand: "npm install -g @anthropic-ai/claude-code",
  loginCommand: "claude auth login",
  buildArgs: (_prompt, _images, extraDirs = [], options = {}, context) => {
    const caps = capsOf(context);
    const args = ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose"];
    if (caps.partialMessages) args.push("--include-partial-messages"); // partial deltas need a build that has them
    if (caps.thinkingDisplay) args.push("--thinking-display", "summarized");
    if (caps.forwardSubagentText && context?.observeNativeChildBehavior) args.push("--forward-subagent-text");
    pushModel(args, "--model", options.model);
    if (caps.effort !== false && !isDefaultChoice(options.reasoning)) args.push("--effort", options.reasoning);
    if (caps.agents && context?.nativeBuildPackageBindings) args.push("--agents", context.nativeBuildPackageBindings);
    if (caps.mcpConfig !== false && context?.mcpConfigPath) args.push("--mcp-config", context.mcpConfigPath); // od's servers, beside the user's own
    if (caps.addDir !== false && extraDirs.length) args.push("--add-dir", ...extraDirs);
    const resumeId = resumeIdOf(context);
    if (resumeId) args.push("--resume", resumeId);
    else if (context?.newSessionId) args.push("--session-id", context.newSessionId);
    if (guardsActions(options.permissionMode)) {
      // The CLI's default mode asks before writes and commands; the questions come to od on stdout (can_use_tool).
      args.push(...CLAUDE_ASK_ARGS);
    } else if (bypassesPermissions(options)) args.push("--permission-mode", "bypassPermissions");
    return args;
  },
}));
