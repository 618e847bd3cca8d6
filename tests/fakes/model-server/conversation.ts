/**
 * Normalises an Anthropic Messages, Chat Completions or Responses request body into a {@link Conversation}:
 * the real user prompts, the step within the turn, the offered tools and the working directory.
 * Tolerant: a body of the wrong shape gives an empty conversation, never an exception.
 */
import { stripInjectedWrappers } from "./directive.ts";
import { asArray, asString, isRecord, textOf } from "./json.ts";
import type { Conversation, ModelApi, OfferedTool } from "./types.ts";

/** One message reduced to what scenario planning needs. */
type Turn =
  /** `text` has injected wrappers stripped; `raw` keeps them (they hold working-directory cues). */
  | { role: "user"; text: string; raw: string; real: boolean }
  | { role: "assistant" }
  | { role: "tool-result"; text: string }
  | { role: "other"; text: string };

export function readConversation(api: ModelApi, body: unknown): Conversation {
  const record = isRecord(body) ? body : {};
  const reader = api === "anthropic" ? readAnthropic : api === "chat" ? readChat : readResponses;
  const { turns, tools, contextText } = reader(record);
  return summarise(api, record, turns, tools, contextText);
}

function summarise(
  api: ModelApi,
  body: Record<string, unknown>,
  turns: Turn[],
  tools: OfferedTool[],
  contextText: string,
): Conversation {
  const userTexts: string[] = [];
  let lastPrompt = -1;
  turns.forEach((turn, index) => {
    if (turn.role === "user" && turn.real) {
      userTexts.push(turn.text);
      lastPrompt = index;
    }
  });
  let step = 0;
  let previousWasAssistant = false;
  for (const turn of turns.slice(lastPrompt + 1)) {
    if (turn.role === "assistant" && !previousWasAssistant) step += 1;
    previousWasAssistant = turn.role === "assistant";
  }
  const last = turns.at(-1);
  const streamOptions = isRecord(body.stream_options) ? body.stream_options : {};
  const allText = [contextText, ...turns.map((turn) => ("raw" in turn ? turn.raw : "text" in turn ? turn.text : ""))].join("\n");
  return {
    api,
    model: asString(body.model) ?? "fake-model",
    stream: body.stream === true,
    includeUsage: streamOptions.include_usage === true,
    userTexts,
    step,
    tools,
    cwd: findWorkingDirectory(allText),
    lastToolResult: last?.role === "tool-result" ? last.text : undefined,
  };
}

function userTurn(text: string): Turn {
  const stripped = stripInjectedWrappers(text);
  return stripped ? { role: "user", text: stripped, raw: text, real: true } : { role: "other", text };
}

function readAnthropic(body: Record<string, unknown>) {
  const turns: Turn[] = [];
  for (const message of asArray(body.messages)) {
    if (!isRecord(message)) continue;
    const role = asString(message.role);
    if (role === "assistant") {
      turns.push({ role: "assistant" });
      continue;
    }
    if (role !== "user") {
      turns.push({ role: "other", text: textOf(message.content) });
      continue;
    }
    const blocks = asArray(message.content);
    const toolResults = blocks.filter((block) => isRecord(block) && block.type === "tool_result");
    if (toolResults.length > 0) {
      const text = toolResults.map((block) => (isRecord(block) ? textOf(block.content) : "")).join("\n");
      turns.push({ role: "tool-result", text });
      continue;
    }
    turns.push(userTurn(textOf(message.content)));
  }
  const tools: OfferedTool[] = asArray(body.tools).flatMap((tool) => {
    if (!isRecord(tool) || typeof tool.name !== "string") return [];
    const schema = isRecord(tool.input_schema) ? tool.input_schema : undefined;
    return [{ name: tool.name, kind: "function" as const, schema }];
  });
  return { turns, tools, contextText: textOf(body.system) };
}

function readChat(body: Record<string, unknown>) {
  const turns: Turn[] = [];
  const context: string[] = [];
  for (const message of asArray(body.messages)) {
    if (!isRecord(message)) continue;
    const role = asString(message.role);
    const text = textOf(message.content);
    if (role === "user") turns.push(userTurn(text));
    else if (role === "assistant") turns.push({ role: "assistant" });
    else if (role === "tool" || role === "function") turns.push({ role: "tool-result", text });
    else context.push(text);
  }
  const tools: OfferedTool[] = asArray(body.tools).flatMap((tool) => {
    if (!isRecord(tool)) return [];
    const fn = isRecord(tool.function) ? tool.function : undefined;
    if (!fn || typeof fn.name !== "string") return [];
    const schema = isRecord(fn.parameters) ? fn.parameters : undefined;
    return [{ name: fn.name, kind: "function" as const, schema }];
  });
  return { turns, tools, contextText: context.join("\n") };
}

const RESPONSES_ASSISTANT_ITEMS = new Set([
  "reasoning",
  "function_call",
  "custom_tool_call",
  "local_shell_call",
  "web_search_call",
  "tool_search_call",
]);

function readResponses(body: Record<string, unknown>) {
  const turns: Turn[] = [];
  const context: string[] = [asString(body.instructions) ?? ""];
  const input = typeof body.input === "string" ? [{ role: "user", content: body.input }] : asArray(body.input);
  for (const item of input) {
    if (!isRecord(item)) continue;
    const type = asString(item.type) ?? "message";
    if (type === "message") {
      const role = asString(item.role);
      const text = textOf(item.content);
      if (role === "user") turns.push(userTurn(text));
      else if (role === "assistant") turns.push({ role: "assistant" });
      else context.push(text);
    } else if (RESPONSES_ASSISTANT_ITEMS.has(type)) {
      turns.push({ role: "assistant" });
    } else if (type.endsWith("_output")) {
      const output = item.output;
      turns.push({ role: "tool-result", text: typeof output === "string" ? output : textOf(output) });
    }
  }
  return { turns, tools: readResponsesTools(asArray(body.tools)), contextText: context.join("\n") };
}

function readResponsesTools(tools: unknown[], namespace?: string): OfferedTool[] {
  return tools.flatMap((tool): OfferedTool[] => {
    if (!isRecord(tool)) return [];
    const name = asString(tool.name);
    if (tool.type === "namespace" && name) return readResponsesTools(asArray(tool.tools), name);
    if (!name) return [];
    if (tool.type === "custom") return [{ name, kind: "custom", namespace }];
    const schema = isRecord(tool.parameters) ? tool.parameters : undefined;
    return [{ name, kind: "function", schema, namespace }];
  });
}

const WORKING_DIRECTORY_CUES: RegExp[] = [
  /<cwd>([^<\n]+)<\/cwd>/,
  /Primary working directory:\s*([^\n<]+)/,
  /Current working directory:\s*([^\n<]+)/,
  /Working directory:\s*([^\n<]+)/,
  /working in the directory:\s*([^\n<]+)/i,
  /Workspace Directories:\s*\n?\s*-?\s*([^\n<]+)/,
];

/** The first absolute path named by a working-directory cue. */
export function findWorkingDirectory(text: string): string | undefined {
  for (const cue of WORKING_DIRECTORY_CUES) {
    const raw = cue.exec(text)?.[1];
    const path = raw?.trim().replace(/^[`'"]+|[`'".,;]+$/g, "");
    if (path && path.startsWith("/")) return path;
  }
  return undefined;
}
