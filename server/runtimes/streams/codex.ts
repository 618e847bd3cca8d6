/**
 * `json-event-stream` / `codex`: `codex exec --json`. Items arrive whole (`agent_message` has no deltas); reasoning
 * items may be updated, so only the unseen suffix of their text is emitted. Commands become a Bash `tool_use` +
 * `tool_result`; each file of a `file_change` becomes its own Write/Edit `tool_use` + `tool_result`.
 */
import { perEvent } from "../../platform/jit-tiers.ts";
import type { AgentEvent, AgentEventOf } from "../../contracts/events.ts";
import { jsonRecordParser, rawRecord, type JsonRecord } from "./json-lines.ts";
import { relativeToCwd, toolUseEvent } from "./tool-kind.ts";
import type { ParserContext, StreamParser } from "./types.ts";
import { arr, compact, num, obj, pickUsage, str, stringifyContent } from "./wire.ts";

const RECONNECTING = /^Reconnecting\.\.\./;

/** codex usage fields → ours (one object for every turn instead of one literal per call). */
const USAGE_FIELDS = {
  input_tokens: "input_tokens",
  output_tokens: "output_tokens",
  thought_tokens: "reasoning_output_tokens",
  cached_read_tokens: "cached_input_tokens",
  cached_write_tokens: "cache_write_input_tokens",
} as const;

/** One entry of a todo_list snapshot. */
type Todo = { content: string; status: string };

/** One todo_list wire entry as a Todo. */
function todoFromWire(raw: unknown): Todo {
  const entry = obj(raw);
  return { content: str(entry?.text) ?? "", status: entry?.completed === true ? "completed" : "pending" };
}

/** The wire entries as Todos (a loop: `map` with a callback would be the runtime's code to compile, per update). */
function todosFromWire(wire: readonly unknown[]): Todo[] {
  const todos: Todo[] = [];
  for (let i = 0; i < wire.length; i++) todos.push(todoFromWire(wire[i]));
  return todos;
}

/** The wire entries would map to the same todos in the same order (compared without building them). */
function sameAsWire(todos: readonly Todo[], wire: readonly unknown[]): boolean {
  if (todos.length !== wire.length) return false;
  for (let i = 0; i < todos.length; i++) {
    const entry = obj(wire[i]);
    const todo = todos[i] as Todo;
    if (todo.content !== (str(entry?.text) ?? "") || todo.status !== (entry?.completed === true ? "completed" : "pending")) return false;
  }
  return true;
}

perEvent(todoFromWire, todosFromWire, sameAsWire);

/** Creates a parser for one `codex exec --json` run. */
export function createCodexParser(ctx: ParserContext = {}): StreamParser {
  const cwd = ctx.cwd;
  const reasoningSeen = new Map<string, number>();
  const emittedTools = new Set<string>();
  const finishedTools = new Set<string>();
  const todoSnapshots = new Map<string, { count: number; last: Todo[] }>();
  let lastReasoningId: string | undefined;
  let thinkingOpen = false;
  let messagesEmitted = 0;
  let lastError: string | undefined;

  function reasoning(item: JsonRecord, id: string): AgentEvent[] {
    const text = str(item.text) ?? "";
    const seen = reasoningSeen.get(id) ?? 0;
    if (text.length <= seen) return [];
    const out: AgentEvent[] = [];
    if (!thinkingOpen) {
      thinkingOpen = true;
      out.push({ type: "thinking_start" });
    }
    const separator = seen === 0 && lastReasoningId !== undefined && lastReasoningId !== id ? "\n\n" : "";
    reasoningSeen.set(id, text.length);
    lastReasoningId = id;
    out.push({ type: "thinking_delta", delta: separator + text.slice(seen) });
    return out;
  }

  function command(item: JsonRecord, id: string, completed: boolean): AgentEvent[] {
    const out: AgentEvent[] = [];
    if (!emittedTools.has(id)) {
      emittedTools.add(id);
      out.push(toolUseEvent(id, "Bash", { command: str(item.command) ?? stringifyContent(item.command) }, cwd));
    }
    if (completed && !finishedTools.has(id)) {
      finishedTools.add(id);
      const exit = num(item.exit_code);
      const failed = item.status === "failed" || (exit !== undefined && exit !== 0);
      const result: AgentEvent = { type: "tool_result", toolUseId: id, content: str(item.aggregated_output) ?? "" };
      if (failed) result.isError = true;
      if (exit !== undefined) result.exitCode = exit;
      out.push(result);
    }
    return out;
  }

  function fileChange(item: JsonRecord, id: string, completed: boolean): AgentEvent[] {
    const out: AgentEvent[] = [];
    const failed = item.status === "failed";
    const changes = arr(item.changes);
    // A plain loop: a forEach closure per line cost more than the few changes it walks.
    for (let index = 0; index < changes.length; index++) {
      const change = obj(changes[index]);
      const path = str(change?.path);
      if (!path) continue;
      const kind = str(change?.kind) ?? "update";
      const changeId = `${id}:${index}`;
      if (!emittedTools.has(changeId)) {
        emittedTools.add(changeId);
        out.push(toolUseEvent(changeId, kind === "add" ? "Write" : "Edit", { file_path: path, change: kind }, cwd));
      }
      if (completed && !finishedTools.has(changeId)) {
        finishedTools.add(changeId);
        const result: AgentEvent = { type: "tool_result", toolUseId: changeId, content: `${kind} ${relativeToCwd(path, cwd)}` };
        if (failed) result.isError = true;
        out.push(result);
      }
    }
    return out;
  }

  function genericTool(id: string, name: string, input: unknown, item: JsonRecord, completed: boolean): AgentEvent[] {
    const out: AgentEvent[] = [];
    if (!emittedTools.has(id)) {
      emittedTools.add(id);
      out.push(toolUseEvent(id, name, input, cwd));
    }
    if (completed && !finishedTools.has(id)) {
      finishedTools.add(id);
      const error = obj(item.error);
      const content = error ? (str(error.message) ?? stringifyContent(error)) : stringifyContent(item.result ?? "");
      const result: AgentEvent = { type: "tool_result", toolUseId: id, content };
      if (error || item.status === "failed") result.isError = true;
      out.push(result);
    }
    return out;
  }

  function todoList(item: JsonRecord, id: string): AgentEvent[] {
    const items = arr(item.items);
    const previous = todoSnapshots.get(id);
    // An unchanged snapshot (most updates) is recognised on the wire entries, before any todo objects are built.
    if (previous && sameAsWire(previous.last, items)) return [];
    const todos = todosFromWire(items);
    const count = (previous?.count ?? 0) + 1;
    todoSnapshots.set(id, { count, last: todos });
    return [toolUseEvent(count === 1 ? id : `${id}:${count}`, "TodoWrite", { todos }, cwd)];
  }

  function onItem(rec: JsonRecord, line: string | undefined): AgentEvent[] {
    const item = obj(rec.item);
    if (!item) return [rawRecord(rec, line)];
    const id = str(item.id) ?? "item";
    const completed = rec.type === "item.completed";
    switch (item.type) {
      case "reasoning":
        return reasoning(item, id);
      case "agent_message": {
        if (!completed) return [];
        const text = str(item.text) ?? "";
        if (text === "") return [];
        const delta = messagesEmitted++ > 0 ? `\n${text}` : text;
        return [{ type: "text_delta", delta }];
      }
      case "command_execution":
        return command(item, id, completed);
      case "file_change":
        return fileChange(item, id, completed);
      case "mcp_tool_call":
        return genericTool(id, `mcp__${str(item.server) ?? "server"}__${str(item.tool) ?? "tool"}`, item.arguments ?? {}, item, completed);
      case "web_search":
        return genericTool(id, "WebSearch", { query: str(item.query) ?? "" }, item, completed);
      case "todo_list":
        return todoList(item, id);
      case "error":
        return [compact({ type: "status", label: "warning", detail: str(item.message) })];
      default:
        return [rawRecord(rec, line)];
    }
  }

  function onError(message: string): AgentEvent[] {
    if (RECONNECTING.test(message)) return [{ type: "status", label: "retrying", detail: message }];
    if (message === lastError) return [];
    lastError = message;
    return [{ type: "error", message, terminal: true }];
  }

  perEvent(reasoning, command, fileChange, genericTool, todoList, onItem);
  return jsonRecordParser({
    record(rec, line) {
      switch (rec.type) {
        case "thread.started": {
          // Built directly rather than through compact(): one object per turn instead of two.
          const event: AgentEventOf<"status"> = { type: "status", label: "initializing" };
          const sessionId = str(rec.thread_id);
          if (sessionId !== undefined) event.sessionId = sessionId;
          return [event];
        }
        case "turn.started":
          return [{ type: "status", label: "thinking" }];
        case "item.started":
        case "item.updated":
        case "item.completed":
          return onItem(rec, line);
        case "turn.completed": {
          const usage = pickUsage(rec.usage, USAGE_FIELDS);
          return [usage === undefined ? { type: "usage", stopReason: "completed" } : { type: "usage", usage, stopReason: "completed" }];
        }
        case "turn.failed":
          return onError(str(obj(rec.error)?.message) ?? "codex turn failed");
        case "error":
          return onError(str(rec.message) ?? "codex error");
        default:
          return [rawRecord(rec, line)];
      }
    },
    end() {
      return [];
    },
  });
}
