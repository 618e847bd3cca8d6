/**
 * Normalises every CLI's tool names into one `ToolKind` and finds the file a call touches, so the UI can show
 * "file written" the same way whether Claude said `Write`, Codex said `apply_patch` or Qwen said `write_file`.
 * Pure functions; used by every stream parser and every JSON-RPC transport.
 */
import { perEvent } from "../../platform/jit-tiers.ts";
import { isAbsolute, relative } from "node:path";
import type { AgentEventOf, ToolKind } from "../../contracts/events.ts";

/** Result of classifying one tool call. */
export type ToolClassification = { kind: ToolKind; path?: string };

const KIND_BY_NAME: Record<string, ToolKind> = {
  write: "file_write",
  create: "file_write",
  write_file: "file_write",
  writefile: "file_write",
  create_file: "file_write",
  notebookwrite: "file_write",
  edit: "file_edit",
  multiedit: "file_edit",
  replace: "file_edit",
  str_replace: "file_edit",
  str_replace_editor: "file_edit",
  str_replace_based_edit_tool: "file_edit",
  edit_file: "file_edit",
  notebookedit: "file_edit",
  patch: "file_edit",
  delete: "file_edit",
  delete_file: "file_edit",
  read: "file_read",
  view: "file_read",
  read_file: "file_read",
  readfile: "file_read",
  read_many_files: "file_read",
  notebookread: "file_read",
  ls: "file_read",
  list: "file_read",
  list_directory: "file_read",
  bash: "command",
  exec_command: "command",
  run_shell_command: "command",
  shell: "command",
  command: "command",
  command_execution: "command",
  run_terminal_cmd: "command",
  bashoutput: "command",
  killshell: "command",
  grep: "search",
  glob: "search",
  search: "search",
  search_file_content: "search",
  codebase_search: "search",
  find: "search",
  webfetch: "web",
  websearch: "web",
  web_fetch: "web",
  web_search: "web",
  google_web_search: "web",
  fetch: "web",
  todowrite: "todo",
  todo: "todo",
  todoread: "todo",
  todo_write: "todo",
  todo_list: "todo",
  taskcreate: "todo",
  taskupdate: "todo",
  update_plan: "todo",
  task: "task",
  agent: "task",
};

const PATH_KEYS = ["file_path", "filePath", "path", "absolute_path", "filename", "fileName", "notebook_path", "file"] as const;
const PATCH_HEADER = /^\*\*\* (Add|Update|Delete) File: (.+)$/m;

/**
 * Classifies a tool call by its CLI name and arguments.
 * @example classifyTool("Write", { file_path: "/p/a.html" }, "/p") // { kind: "file_write", path: "a.html" }
 */
export function classifyTool(name: string, input: unknown, cwd?: string): ToolClassification {
  const lower = name.toLowerCase();
  if (lower.startsWith("mcp__") || lower.startsWith("mcp_")) return withPath("mcp", pathFromInput(input), cwd);
  if (lower === "apply_patch" || lower === "applypatch") return classifyPatch(input, cwd);
  const kind = KIND_BY_NAME[lower] ?? "other";
  return withPath(kind, pathFromInput(input), cwd);
}

/** Builds a `tool_use` event with `kind`/`path` filled in by `classifyTool`. */
export function toolUseEvent(
  id: string,
  name: string,
  input: unknown,
  cwd?: string,
  startedAt?: number,
): AgentEventOf<"tool_use"> {
  const { kind, path } = classifyTool(name, input, cwd);
  const event: AgentEventOf<"tool_use"> = { type: "tool_use", id, name, input, kind };
  if (path !== undefined) event.path = path;
  if (startedAt !== undefined) event.startedAt = startedAt;
  return event;
}

/** Makes `path` relative to `cwd` when it lies inside it; otherwise returns it unchanged. */
export function relativeToCwd(path: string, cwd?: string): string {
  if (!cwd || !isAbsolute(path)) return path;
  // `relative` resolves both arguments itself; resolving them first as well did the work twice per tool call.
  const rel = relative(cwd, path);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return path;
  return rel;
}

function classifyPatch(input: unknown, cwd?: string): ToolClassification {
  const text = patchText(input);
  const header = text === undefined ? null : PATCH_HEADER.exec(text);
  if (!header) return withPath("file_edit", pathFromInput(input), cwd);
  const kind: ToolKind = header[1] === "Add" ? "file_write" : "file_edit";
  return withPath(kind, header[2]?.trim(), cwd);
}

function patchText(input: unknown): string | undefined {
  if (typeof input === "string") return input;
  if (!isRecord(input)) return undefined;
  for (const key of ["input", "patch", "command", "raw"]) {
    const value = input[key];
    if (typeof value === "string") return value;
    if (Array.isArray(value)) {
      const joined = value.filter((v): v is string => typeof v === "string").join("\n");
      if (joined.includes("*** ")) return joined;
    }
  }
  return undefined;
}

function pathFromInput(input: unknown): string | undefined {
  if (!isRecord(input)) return undefined;
  for (const key of PATH_KEYS) {
    const value = input[key];
    if (typeof value === "string" && value.length > 0) return value;
  }
  return undefined;
}

function withPath(kind: ToolKind, path: string | undefined, cwd?: string): ToolClassification {
  return path === undefined ? { kind } : { kind, path: relativeToCwd(path, cwd) };
}

/** True for a plain (non-array) object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// Each tool call of a stream goes through these (server/platform/jit-tiers.ts).
perEvent(classifyTool, toolUseEvent, relativeToCwd, classifyPatch, patchText, pathFromInput, withPath, isRecord);
