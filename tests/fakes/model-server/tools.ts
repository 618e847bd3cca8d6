/**
 * Picks the CLI's own write or shell tool from the offered tools and builds its arguments from the tool's
 * schema (real-clis.md §16 table), filling unknown required parameters harmlessly.
 */
import { isRecord } from "./json.ts";
import type { OfferedTool, PlannedToolCall } from "./types.ts";

const WRITE_TOOL_NAMES = ["apply_patch", "Write", "write_file", "write", "create", "create_file", "mcp__acp__Write"];
const SHELL_TOOL_NAMES = ["exec_command", "Bash", "bash", "run_shell_command", "shell", "shell_command", "mcp__acp__Bash"];
const PATH_KEYS = ["file_path", "filePath", "path", "absolute_path", "absolutePath"];
const CONTENT_KEYS = ["content", "file_text", "contents", "text"];
const COMMAND_KEYS = ["cmd", "command"];

let callCounter = 0;

/** A fresh call id in the style of the API (`toolu_`, `call_`). */
export function newCallId(prefix: string): string {
  callCounter += 1;
  return `${prefix}od${String(callCounter).padStart(6, "0")}`;
}

function findTool(tools: OfferedTool[], names: string[]): OfferedTool | undefined {
  for (const name of names) {
    const exact = tools.find((tool) => tool.name === name);
    if (exact) return exact;
  }
  const lower = names.map((name) => name.toLowerCase());
  return tools.find((tool) => lower.includes(tool.name.toLowerCase()));
}

function properties(tool: OfferedTool): Record<string, unknown> {
  return isRecord(tool.schema?.properties) ? tool.schema.properties : {};
}

function firstKey(tool: OfferedTool, candidates: string[]): string | undefined {
  const props = properties(tool);
  return candidates.find((key) => key in props);
}

/** A harmless value for a required parameter we know nothing about. */
function placeholderFor(schema: unknown): unknown {
  if (!isRecord(schema)) return "od-fake";
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  switch (schema.type) {
    case "boolean":
      return false;
    case "number":
    case "integer":
      return typeof schema.minimum === "number" ? schema.minimum : 1;
    case "array":
      return [];
    case "object":
      return {};
    default:
      return "od-fake";
  }
}

function fillRequired(tool: OfferedTool, args: Record<string, unknown>): Record<string, unknown> {
  const required = Array.isArray(tool.schema?.required) ? tool.schema.required : [];
  const props = properties(tool);
  for (const key of required) {
    if (typeof key === "string" && !(key in args)) args[key] = key === "description" ? "od-fake step" : placeholderFor(props[key]);
  }
  return args;
}

function absolute(path: string, cwd: string | undefined): string {
  if (path.startsWith("/") || !cwd) return path;
  return `${cwd.replace(/\/+$/, "")}/${path}`;
}

function call(tool: OfferedTool, prefix: string, args: Record<string, unknown> | string): PlannedToolCall {
  return {
    id: newCallId(prefix),
    name: tool.name,
    kind: tool.kind,
    argumentsJson: typeof args === "string" ? JSON.stringify({ input: args }) : JSON.stringify(args),
    input: typeof args === "string" ? args : JSON.stringify(args),
    namespace: tool.namespace,
  };
}

/** codex's freeform apply_patch body creating one file. */
export function addFilePatch(relativePath: string, content: string): string {
  const lines = content.split("\n").map((line) => `+${line}`);
  return ["*** Begin Patch", `*** Add File: ${relativePath}`, ...lines, "*** End Patch"].join("\n");
}

/** A call to the offered write tool, or undefined when none is offered. */
export function planWriteCall(
  tools: OfferedTool[],
  file: { path: string; content: string },
  cwd: string | undefined,
  idPrefix: string,
): PlannedToolCall | undefined {
  const tool = findTool(tools, WRITE_TOOL_NAMES);
  if (!tool) return undefined;
  if (tool.name === "apply_patch") {
    const patch = addFilePatch(file.path, file.content);
    if (tool.kind === "custom") return call(tool, idPrefix, patch);
    const key = firstKey(tool, ["input", "patch"]) ?? "input";
    return call(tool, idPrefix, fillRequired(tool, { [key]: patch }));
  }
  const pathKey = firstKey(tool, PATH_KEYS) ?? "file_path";
  const contentKey = firstKey(tool, CONTENT_KEYS) ?? "content";
  return call(tool, idPrefix, fillRequired(tool, { [pathKey]: absolute(file.path, cwd), [contentKey]: file.content }));
}

/** A call to the offered shell tool, or undefined when none is offered. */
export function planShellCall(tools: OfferedTool[], command: string, idPrefix: string): PlannedToolCall | undefined {
  const tool = findTool(tools, SHELL_TOOL_NAMES);
  if (!tool) return undefined;
  const key = firstKey(tool, COMMAND_KEYS) ?? "command";
  const schema = properties(tool)[key];
  const value = isRecord(schema) && schema.type === "array" ? ["bash", "-lc", command] : command;
  return call(tool, idPrefix, fillRequired(tool, { [key]: value }));
}
