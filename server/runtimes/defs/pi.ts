/** Pi coding agent in RPC mode; skills via `--skill`, other absolute dirs as system-prompt hints. */
import { join } from "node:path";
import type { RuntimeAgentDef } from "../types.ts";
import { parsePiListModels } from "../models.ts";
import { piPermissionExtension } from "./pi-permissions.ts";
import { choices, isAbsolutePath, isDefaultChoice, lazyAgentDef, MULTI_PROVIDER_ENV, pushModel, pushRepeated, withDefaultModel } from "./shared.ts";

/**
 * Where od asks pi to keep its sessions, relative to the project. The pi-rpc transport looks for the session file a
 * turn changed in the same folder, so resume needs both to agree: pi's own default is under its agent dir instead.
 */
export const PI_RPC_SESSION_DIR = join(".pi", "sessions");

export const piAgentDef = lazyAgentDef((): RuntimeAgentDef => ({
  id: "pi",
  name: "Pi",
  bin: "pi",
  versionArgs: ["--version"],
  versionProbeTimeoutMs: 15_000,
  fallbackModels: withDefaultModel([
    "anthropic/claude-sonnet-4-5",
    "openai/gpt-5.1-codex",
    "google/gemini-2.5-pro",
  ]),
  reasoningOptions: choices(["off", "minimal", "low", "medium", "high", "xhigh"], { withDefault: true }),
  streamFormat: "pi-rpc",
  inheritedEnv: [...MULTI_PROVIDER_ENV],
  piRpcSessionDir: PI_RPC_SESSION_DIR,
  // In ask and read-only runs od's permission extension puts each tool call that acts to the run first.
  agentFile: piPermissionExtension,
  supportsImagePaths: true,
  fetchModels: async (run) => {
    const output = await run(["--list-models"], { timeoutMs: 60_000 });
    if (!output || output.exitCode !== 0) return null;
    // pi 0.73 prints the table on stderr; read it from its header on, so other stderr lines never become models.
    const table = [output.stdout, output.stderr].map((text) => text.slice(Math.max(0, text.search(/^provider\s+model\b/im)))).find((text) => /^provider\s+model\b/im.test(text));
    return parsePiListModels(table ?? output.stdout);
  },
  installUrl: "https://github.com/badlogic/pi-mono",
  installCommand: "npm install -g @mariozechner/pi-coding-agent",
  buildArgs: (_prompt, _images, extraDirs = [], options = {}, context) => {
    const skillDirs = context?.skillDirs ?? [];
    const args = ["--mode", "rpc"];
    if (context?.cwd) args.push("--session-dir", join(context.cwd, PI_RPC_SESSION_DIR));
    pushModel(args, "--model", options.model);
    if (!isDefaultChoice(options.reasoning)) args.push("--thinking", options.reasoning);
    pushRepeated(args, "--skill", skillDirs);
    const hints = extraDirs.filter((dir) => isAbsolutePath(dir, context?.platform) && !skillDirs.includes(dir));
    pushRepeated(args, "--append-system-prompt", hints);
    if (context?.agentFilePath) args.push("--extension", context.agentFilePath);
    return args;
  },
}));
