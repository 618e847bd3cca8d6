/**
 * Accumulates ACP `tool_call` / `tool_call_update` frames per `toolCallId` and settles each call into exactly one
 * `tool_use` + one `tool_result` once its status is terminal.
 */
import type { AgentEvent, AgentEventOf, ToolKind } from "../../../contracts/events.ts";
import { classifyTool, isRecord, relativeToCwd } from "../../streams/tool-kind.ts";

type ToolState = {
  id: string;
  title?: string;
  acpKind?: string;
  input: Record<string, unknown>;
  status?: string;
  content: unknown[];
  locations: string[];
  rawOutput?: unknown;
  startedAt: number;
  settled: boolean;
};

const SUCCESS = new Set(["completed", "complete", "succeeded", "success"]);
const FAILURE = new Set(["failed", "failure", "error", "cancelled", "canceled"]);

const KIND_BY_ACP_KIND: Record<string, ToolKind> = {
  read: "file_read",
  edit: "file_edit",
  delete: "file_edit",
  move: "file_edit",
  search: "search",
  execute: "command",
  fetch: "web",
};

export class AcpToolCalls {
  private readonly tools = new Map<string, ToolState>();

  constructor(
    private readonly cwd: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Folds one tool_call / tool_call_update; returns the settled events when it became terminal. */
  apply(update: Record<string, unknown>): AgentEvent[] {
    const id = typeof update.toolCallId === "string" ? update.toolCallId : null;
    if (id === null) return [];
    let state = this.tools.get(id);
    if (!state) {
      state = { id, input: {}, content: [], locations: [], startedAt: this.now(), settled: false };
      this.tools.set(id, state);
    }
    if (state.settled) return [];
    if (typeof update.title === "string" && update.title !== "") state.title = update.title;
    if (typeof update.kind === "string") state.acpKind = update.kind;
    if (typeof update.status === "string") state.status = update.status;
    if (isRecord(update.rawInput)) Object.assign(state.input, update.rawInput);
    if (Array.isArray(update.content) && update.content.length > 0) state.content = update.content;
    if (Array.isArray(update.locations)) {
      for (const location of update.locations) {
        if (isRecord(location) && typeof location.path === "string") state.locations.push(location.path);
      }
    }
    if ("rawOutput" in update) state.rawOutput = update.rawOutput;
    const status = state.status?.toLowerCase();
    if (status !== undefined && (SUCCESS.has(status) || FAILURE.has(status))) return this.settle(state, FAILURE.has(status));
    return [];
  }

  /** Ids of calls seen but not yet terminal. */
  openIds(): string[] {
    return [...this.tools.values()].filter((tool) => !tool.settled).map((tool) => tool.id);
  }

  /** Settles every open call (prompt ended): as errors with `reason` on failure paths, as plain results otherwise. */
  flush(reason: string | null): AgentEvent[] {
    const events: AgentEvent[] = [];
    for (const tool of this.tools.values()) {
      if (tool.settled) continue;
      if (reason !== null && tool.content.length === 0 && tool.rawOutput === undefined) tool.rawOutput = reason;
      events.push(...this.settle(tool, reason !== null));
    }
    return events;
  }

  private settle(tool: ToolState, isError: boolean): AgentEvent[] {
    tool.settled = true;
    const result: AgentEventOf<"tool_result"> = { type: "tool_result", toolUseId: tool.id, content: resultText(tool) };
    if (isError) result.isError = true;
    return [this.toolUse(tool), result];
  }

  private toolUse(tool: ToolState): AgentEventOf<"tool_use"> {
    const name = toolName(tool);
    const classified = classifyTool(name, tool.input, this.cwd);
    let kind = classified.kind;
    if (kind === "other" && tool.acpKind) kind = KIND_BY_ACP_KIND[tool.acpKind] ?? "other";
    if (kind === "file_edit" && tool.acpKind === "edit" && createsFile(tool.content)) kind = "file_write";
    const path = classified.path ?? this.pathOf(tool);
    const event: AgentEventOf<"tool_use"> = { type: "tool_use", id: tool.id, name, input: tool.input, kind, startedAt: tool.startedAt };
    if (path !== undefined) event.path = path;
    return event;
  }

  private pathOf(tool: ToolState): string | undefined {
    const fromDiff = tool.content.find((block) => isRecord(block) && block.type === "diff" && typeof block.path === "string");
    const candidate = tool.locations[0] ?? (isRecord(fromDiff) ? (fromDiff.path as string) : undefined);
    return candidate === undefined ? undefined : relativeToCwd(candidate, this.cwd);
  }
}

function toolName(tool: ToolState): string {
  const firstWord = tool.title?.trim().split(/\s+/)[0];
  if (firstWord && /^[A-Za-z_][\w.-]*$/.test(firstWord)) return firstWord;
  return tool.acpKind ?? "tool";
}

function createsFile(content: unknown[]): boolean {
  return content.some((block) => isRecord(block) && block.type === "diff" && (block.oldText === null || block.oldText === undefined));
}

function resultText(tool: ToolState): string {
  const parts: string[] = [];
  for (const block of tool.content) {
    if (!isRecord(block)) continue;
    if (block.type === "content" && isRecord(block.content) && typeof block.content.text === "string") parts.push(block.content.text);
    else if (block.type === "diff" && typeof block.path === "string") parts.push(`diff ${block.path}`);
    else if (block.type === "terminal" && typeof block.terminalId === "string") parts.push(`terminal ${block.terminalId}`);
  }
  if (parts.length > 0) return parts.join("\n");
  if (typeof tool.rawOutput === "string") return tool.rawOutput;
  if (tool.rawOutput !== undefined && tool.rawOutput !== null) return JSON.stringify(tool.rawOutput);
  return "";
}
