/** One tool call, rendered by its normalised kind: files link into the panel, commands show output, todos list. */
import type { ToolItem } from "../state/run-state.ts";

const KIND_LABEL: Record<ToolItem["toolKind"], string> = {
  file_write: "Wrote",
  file_edit: "Edited",
  file_read: "Read",
  command: "Ran",
  search: "Searched",
  web: "Fetched",
  todo: "Plan",
  task: "Task",
  mcp: "MCP",
  other: "Tool",
};

function field(input: unknown, ...names: string[]): string | undefined {
  if (typeof input !== "object" || input === null) return undefined;
  for (const name of names) {
    const value = (input as Record<string, unknown>)[name];
    if (typeof value === "string" && value) return value;
    if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value.join(" ");
  }
  return undefined;
}

interface Todo {
  content: string;
  status: string;
}

function todos(input: unknown): Todo[] {
  const list = typeof input === "object" && input !== null ? (input as { todos?: unknown }).todos : undefined;
  if (!Array.isArray(list)) return [];
  return list.flatMap((t) =>
    typeof t === "object" && t !== null && typeof (t as Todo).content === "string"
      ? [{ content: (t as Todo).content, status: String((t as Todo).status ?? "pending") }]
      : [],
  );
}

function summary(tool: ToolItem): string {
  switch (tool.toolKind) {
    case "file_write":
    case "file_edit":
    case "file_read":
      return tool.path ?? field(tool.input, "file_path", "path", "filePath") ?? "";
    case "command":
      return field(tool.input, "command", "cmd") ?? "";
    case "search":
      return field(tool.input, "pattern", "query", "glob") ?? "";
    case "web":
      return field(tool.input, "url", "query") ?? "";
    case "task":
      return field(tool.input, "description", "prompt") ?? "";
    case "mcp":
    case "todo":
    case "other":
      return "";
  }
}

function inputText(tool: ToolItem): string {
  if (tool.input === undefined) return tool.inputDraft;
  try {
    return JSON.stringify(tool.input, null, 2) ?? "";
  } catch {
    return String(tool.input);
  }
}

export function ToolCard({ tool, onOpenFile }: { tool: ToolItem; onOpenFile?: (path: string) => void }) {
  const detail = summary(tool);
  const isFile = (tool.toolKind === "file_write" || tool.toolKind === "file_edit") && tool.path;
  const list = tool.toolKind === "todo" ? todos(tool.input) : [];
  return (
    <div class={`tool-card state-${tool.state}`} data-testid="tool-card" data-kind={tool.toolKind} data-state={tool.state}>
      <div class="tool-head">
        <span class="tool-state" aria-label={tool.state}>
          {tool.state === "running" ? "…" : tool.state === "error" ? "✕" : "✓"}
        </span>
        <span class="tool-kind">{KIND_LABEL[tool.toolKind]}</span>
        {isFile && onOpenFile ? (
          <button type="button" class="link file-link" data-testid="tool-file-link" onClick={() => onOpenFile(tool.path!)}>
            {tool.path}
          </button>
        ) : (
          <code class="tool-detail">{detail || tool.name}</code>
        )}
        <span class="tool-name">{tool.name}</span>
      </div>
      {list.length > 0 && (
        <ul class="todo-list">
          {list.map((todo, i) => (
            <li key={i} data-status={todo.status}>
              <span class="todo-mark">{todo.status === "completed" ? "☑" : todo.status === "in_progress" ? "◐" : "☐"}</span> {todo.content}
            </li>
          ))}
        </ul>
      )}
      {tool.toolKind === "command" && tool.result !== undefined && <pre class="tool-output">{tool.result}</pre>}
      <details class="tool-io">
        <summary>Input{tool.toolKind !== "command" && tool.result !== undefined ? " and result" : ""}</summary>
        <pre>{inputText(tool)}</pre>
        {tool.toolKind !== "command" && tool.result !== undefined && <pre class={tool.state === "error" ? "tool-error" : ""}>{tool.result}</pre>}
      </details>
    </div>
  );
}
