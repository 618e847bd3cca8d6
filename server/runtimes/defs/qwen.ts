/**
 * Qwen Code: prompt on stdin (no `-` sentinel), `-o stream-json` out (Claude Code's stream-json shapes, read by the
 * claude parser), so tool calls show as tool_use/tool_result and the `session_id` of its init line resumes the
 * conversation natively with `-r`. In ask and read-only runs it speaks Claude's control protocol instead: the prompt
 * as stream-json after an SDK `initialize` request, `--approval-mode default`, and each tool call that needs consent
 * a `can_use_tool` request od answers (Qwen Code 0.24).
 */
import type { RuntimeAgentDef } from "../types.ts";
import { bypassesPermissions, guardsActions, lazyAgentDef, pushModel, resumeIdOf, withDefaultModel } from "./shared.ts";

/** The prompt as stream-json (after od's `initialize`), and the mode in which each tool call that needs consent is asked. */
const QWEN_ASK_ARGS = ["--input-format", "stream-json", "--approval-mode", "default"];

export const qwenAgentDef = lazyAgentDef((): RuntimeAgentDef => ({
  id: "qwen",
  name: "Qwen Code",
  bin: "qwen",
  versionArgs: ["--version"],
  fallbackModels: withDefaultModel(["qwen3-coder-plus", "qwen3-coder-flash"]),
  streamFormat: "claude-stream-json",
  inheritedEnv: ["OPENAI_API_KEY", "DASHSCOPE_API_KEY", "QWEN_OAUTH_TOKEN"],
  promptViaStdin: true,
  approvalChannel: "claude-control",
  approvalChannelArgs: QWEN_ASK_ARGS,
  initializesControl: true,
  resumesSessionViaCli: true,
  capturesSessionIdFromStream: true,
  installUrl: "https://github.com/QwenLM/qwen-code",
  installCommand: "npm install -g @qwen-code/qwen-code",
  buildArgs: (_prompt, _images, _extraDirs, options = {}, context) => {
    const args = guardsActions(options.permissionMode) ? [...QWEN_ASK_ARGS] : !bypassesPermissions(options) ? [] : ["--yolo"];
    args.push("-o", "stream-json");
    pushModel(args, "--model", options.model);
    const resumeId = resumeIdOf(context);
    if (resumeId) args.push("-r", resumeId);
    return args;
  },
}));
