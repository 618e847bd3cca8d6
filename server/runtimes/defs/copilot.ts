/**
 * GitHub Copilot CLI: prompt on stdin, never `-p` (`-p -` would be the literal prompt "-"). Sessions are
 * specify-style: `--session-id <uuid>` names a new session and continues an existing one (its JSON output reports
 * the id only in the final `result`).
 */
import type { RuntimeAgentDef } from "../types.ts";
import { versionNumberIn } from "../version-text.ts";
import { bypassesPermissions, guardsActions, lazyAgentDef, pushModel, pushRepeated, resumeIdOf, THIRTY_MINUTES_MS, withDefaultModel } from "./shared.ts";

export const copilotAgentDef = lazyAgentDef((): RuntimeAgentDef => ({
  id: "copilot",
  name: "GitHub Copilot CLI",
  bin: "copilot",
  versionArgs: ["--version"],
  // `GitHub Copilot CLI 1.0.102.` (plus an update hint on later lines).
  parseVersion: versionNumberIn,
  fallbackModels: withDefaultModel([
    { id: "claude-sonnet-4.6", label: "Claude Sonnet 4.6" },
    { id: "gpt-5.2", label: "GPT-5.2" },
  ]),
  streamFormat: "copilot-stream-json",
  // Headless, it cannot ask on its JSON stream; over ACP (`--acp`) it sends session/request_permission before it acts.
  resolveTransport: (_env, mode) => (guardsActions(mode) ? { streamFormat: "acp-json-rpc" } : { streamFormat: "copilot-stream-json" }),
  inheritedEnv: ["GH_TOKEN", "GITHUB_TOKEN", "COPILOT_GITHUB_TOKEN", "COPILOT_PROVIDER_API_KEY"],
  promptViaStdin: true,
  resumesSessionViaCli: true,
  inactivityTimeoutMs: THIRTY_MINUTES_MS,
  installUrl: "https://github.com/github/copilot-cli",
  docsUrl: "https://docs.github.com/copilot/how-tos/use-copilot-agents/use-copilot-cli",
  installCommand: "npm install -g @github/copilot",
  approvalChannelArgs: ["--acp"],
  buildArgs: (_prompt, _images, extraDirs = [], options = {}, context) => {
    // Asking runs go over ACP: the prompt, model and permissions travel in the protocol.
    if (guardsActions(options.permissionMode)) return ["--acp", ...extraDirs.flatMap((dir) => ["--add-dir", dir])];
    // Without --allow-all-tools a headless run blocks on a tool-approval prompt.
    const args = !bypassesPermissions(options) ? [] : ["--allow-all-tools"];
    args.push("--output-format", "json");
    pushModel(args, "--model", options.model);
    pushRepeated(args, "--add-dir", extraDirs);
    // Not gated on a help probe: copilot's cold `--help` takes ~4 s, and a timed-out probe would read as "absent".
    const sessionId = resumeIdOf(context) ?? context?.newSessionId;
    if (sessionId) args.push("--session-id", sessionId);
    return args;
  },
}));
