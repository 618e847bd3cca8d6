/** Cursor Agent: `cursor-agent --print` stream-json with the prompt on stdin. */
import type { RuntimeAgentDef } from "../types.ts";
import { parseCursorAgentModels } from "../models.ts";
import { bypassesPermissions, capsOf, lazyAgentDef, pushModel, resumeIdOf, withDefaultModel } from "./shared.ts";

export const cursorAgentDef = lazyAgentDef((): RuntimeAgentDef => ({
  id: "cursor-agent",
  name: "Cursor Agent",
  bin: "cursor-agent",
  versionArgs: ["--version"],
  helpArgs: ["--help"],
  capabilityFlags: { "--trust": "trust" },
  fallbackModels: withDefaultModel([
    { id: "auto", label: "Auto" },
    { id: "sonnet-4.5", label: "Claude Sonnet 4.5" },
    { id: "gpt-5", label: "GPT-5" },
  ]),
  streamFormat: "json-event-stream",
  eventParser: "cursor-agent",
  promptViaStdin: true,
  resumesSessionViaCli: true,
  capturesSessionIdFromStream: true,
  authProbe: { args: ["status"], timeoutMs: 5000 },
  listModels: { args: ["models"], timeoutMs: 5000, parse: parseCursorAgentModels },
  inheritedEnv: ["CURSOR_API_KEY"],
  installUrl: "https://cursor.com/cli",
  docsUrl: "https://docs.cursor.com/en/cli/overview",
  installCommand: "curl https://cursor.com/install -fsS | bash",
  loginCommand: "cursor-agent login",
  buildArgs: (_prompt, _images, _extraDirs, options = {}, context) => {
    const args = ["--print", "--output-format", "stream-json", "--stream-partial-output"];
    if (bypassesPermissions(options)) {
      args.push("--force");
      if (capsOf(context).trust) args.push("--trust"); // older builds reject --trust
    }
    if (context?.cwd) args.push("--workspace", context.cwd);
    pushModel(args, "--model", options.model);
    const resumeId = resumeIdOf(context);
    if (resumeId) args.push("--resume", resumeId);
    return args;
  },
}));
