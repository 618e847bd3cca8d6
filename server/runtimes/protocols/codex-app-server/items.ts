/**
 * Maps codex app-server notifications onto AgentEvents: agentMessage deltas → text, reasoning summary deltas →
 * thinking, commandExecution → tool_use/tool_result, fileChange (with early patch previews) → one Write/Edit row per
 * file settled with diff stats, token usage summed per turn, error notifications with auth/quota/upstream codes.
 * Sub-agents: a `collabAgentToolCall` that spawns agents is a `task` call, and the tool calls of the threads it
 * spawned (notifications whose `threadId` is one of its receivers) carry its id as `parentToolUseId`; their text
 * and thinking stay out of the answer, as Claude's sub-agents' do. Stateful per turn; never throws on odd input.
 */
import type { AgentEvent, AgentEventOf, Usage } from "../../../contracts/events.ts";
import { isRecord, relativeToCwd } from "../../streams/tool-kind.ts";
import { codexErrorCode } from "./errors.ts";
import type { FileUpdateChange } from "./generated/v2/FileUpdateChange";
import type { ThreadItem } from "./generated/v2/ThreadItem";
import type { TokenUsageBreakdown } from "./generated/v2/TokenUsageBreakdown";

/** Notifications that carry nothing for the stream. */
const SILENT = new Set([
  "thread/started",
  "thread/status/changed",
  "turn/diff/updated",
  "account/rateLimits/updated",
  "remoteControl/status/changed",
  "item/commandExecution/outputDelta",
  "item/fileChange/outputDelta",
  "item/reasoning/summaryPartAdded",
  "item/reasoning/textDelta",
  "mcpServer/startupStatus/updated",
]);

/** A failure reported by an `error` notification without `willRetry`. */
export type CodexTurnError = { code: string; message: string };

export class CodexItemMapper {
  private readonly openFiles = new Map<string, { change: FileUpdateChange; settled: boolean }>();
  private readonly openCommands = new Set<string>();
  private readonly messagesWithDeltas = new Set<string>();
  private readonly thinkingItems = new Set<string>();
  private readonly usage: Required<Pick<Usage, "input_tokens" | "output_tokens" | "cached_read_tokens" | "thought_tokens" | "total_tokens">> = {
    input_tokens: 0,
    output_tokens: 0,
    cached_read_tokens: 0,
    thought_tokens: 0,
    total_tokens: 0,
  };
  private sawUsage = false;
  private sawText = false;
  private turnSentAt: number | null = null;
  private textItems = 0;
  /** A spawned sub-agent's thread → the collab call that spawned it. */
  private readonly childThreads = new Map<string, string>();
  /** The latest non-retried error of this turn. */
  lastError: CodexTurnError | null = null;

  constructor(
    private readonly cwd: string,
    private readonly now: () => number = Date.now,
  ) {}

  turnSent(): void {
    this.turnSentAt = this.now();
  }

  /** True when a notification comes from a sub-agent's thread (its turn ending is not the main turn's). */
  isSubAgentThread(params: unknown): boolean {
    return isRecord(params) && typeof params.threadId === "string" && this.childThreads.has(params.threadId);
  }

  map(method: string, params: unknown): AgentEvent[] {
    const p = isRecord(params) ? params : {};
    const parent = typeof p.threadId === "string" ? this.childThreads.get(p.threadId) : undefined;
    if (parent !== undefined) return this.mapSubAgent(parent, method, p);
    switch (method) {
      case "turn/started":
        return [{ type: "status", label: "thinking" }];
      case "item/started":
        return isRecord(p.item) ? this.itemStarted(p.item as ThreadItem) : [];
      case "item/completed":
        return isRecord(p.item) ? this.itemCompleted(p.item as ThreadItem) : [];
      case "item/agentMessage/delta":
        return this.textDelta(String(p.itemId ?? ""), typeof p.delta === "string" ? p.delta : "");
      case "item/reasoning/summaryTextDelta":
        return this.thinkingDelta(String(p.itemId ?? ""), typeof p.delta === "string" ? p.delta : "");
      case "item/fileChange/patchUpdated":
        return this.patchUpdated(String(p.itemId ?? ""), Array.isArray(p.changes) ? (p.changes as FileUpdateChange[]) : []);
      case "thread/tokenUsage/updated":
        this.addUsage(isRecord(p.tokenUsage) ? (p.tokenUsage.last as TokenUsageBreakdown | undefined) : undefined);
        return [];
      case "error":
        return this.error(p);
      case "configWarning":
        return [{ type: "status", label: "warning", ...(typeof p.summary === "string" ? { detail: p.summary } : {}) }];
      default:
        return SILENT.has(method) ? [] : [{ type: "raw", line: JSON.stringify({ method, params }).slice(0, 4000) }];
    }
  }

  /** Usage of the turn and settlement of anything still open (`turn/completed` or the end of the process). */
  finish(stopReason: string, failed: boolean): AgentEvent[] {
    const events: AgentEvent[] = [...this.closeThinking()];
    for (const [key, file] of this.openFiles) if (!file.settled) events.push(this.settleFile(key, file.change, failed ? "failed" : "completed"));
    for (const id of this.openCommands) events.push({ type: "tool_result", toolUseId: id, content: "", isError: true });
    this.openCommands.clear();
    const usage: AgentEventOf<"usage"> = { type: "usage", stopReason };
    if (this.sawUsage) usage.usage = { ...this.usage };
    events.push(usage);
    return events;
  }

  /** A sub-agent's notification: its tool calls (and token usage) only, each linked to the call that spawned it. */
  private mapSubAgent(parent: string, method: string, p: Record<string, unknown>): AgentEvent[] {
    const item = isRecord(p.item) ? (p.item as ThreadItem) : undefined;
    const events =
      method === "item/started" && item ? this.itemStarted(item)
      : method === "item/completed" && item && item.type !== "agentMessage" && item.type !== "reasoning" ? this.itemCompleted(item)
      : method === "item/fileChange/patchUpdated" || method === "thread/tokenUsage/updated" ? this.map(method, { ...p, threadId: undefined })
      : [];
    return events.map((event) => (event.type === "tool_use" || event.type === "tool_result" ? { ...event, parentToolUseId: parent } : event));
  }

  private collabCall(item: Extract<ThreadItem, { type: "collabAgentToolCall" }>, completed: boolean): AgentEvent[] {
    for (const thread of item.receiverThreadIds ?? []) if (typeof thread === "string") this.childThreads.set(thread, item.id);
    const events: AgentEvent[] = [];
    if (!this.openCommands.has(item.id)) {
      this.openCommands.add(item.id);
      const input = { ...(item.prompt ? { prompt: item.prompt } : {}), ...(item.model ? { model: item.model } : {}), ...(item.receiverThreadIds?.length ? { agents: item.receiverThreadIds } : {}) };
      events.push({ type: "tool_use", id: item.id, name: item.tool, input, kind: "task", startedAt: this.now() });
    }
    if (completed) {
      this.openCommands.delete(item.id);
      const states = Object.entries(item.agentsStates ?? {}).flatMap(([thread, state]) => (state ? [`${thread}: ${state.status}${state.message ? ` — ${state.message}` : ""}`] : []));
      const failed = item.status === "failed" || item.status === "interrupted";
      events.push({ type: "tool_result", toolUseId: item.id, content: states.join("\n") || item.status, ...(failed ? { isError: true } : {}) });
    }
    return events;
  }

  private itemStarted(item: ThreadItem): AgentEvent[] {
    switch (item.type) {
      case "collabAgentToolCall":
        return this.collabCall(item, false);
      case "commandExecution": {
        this.openCommands.add(item.id);
        const use: AgentEventOf<"tool_use"> = { type: "tool_use", id: item.id, name: "Bash", input: { command: item.command }, kind: "command", startedAt: this.now() };
        return [use];
      }
      case "fileChange":
        return this.patchUpdated(item.id, Array.isArray(item.changes) ? item.changes : []);
      case "mcpToolCall": {
        this.openCommands.add(item.id);
        return [{ type: "tool_use", id: item.id, name: `mcp__${item.server}__${item.tool}`, input: item.arguments ?? {}, kind: "mcp", startedAt: this.now() }];
      }
      default:
        return [];
    }
  }

  private itemCompleted(item: ThreadItem): AgentEvent[] {
    switch (item.type) {
      case "collabAgentToolCall":
        return this.collabCall(item, true);
      case "agentMessage":
        // Without deltas (older servers), the completed message is the text.
        if (this.messagesWithDeltas.has(item.id) || typeof item.text !== "string" || item.text === "") return [];
        return this.textDelta(item.id, item.text);
      case "reasoning":
        return this.closeThinking(item.id);
      case "commandExecution": {
        const events = this.openCommands.has(item.id) ? [] : this.itemStarted(item);
        this.openCommands.delete(item.id);
        const result: AgentEventOf<"tool_result"> = { type: "tool_result", toolUseId: item.id, content: item.aggregatedOutput ?? "" };
        if (item.status === "failed" || item.status === "declined" || (typeof item.exitCode === "number" && item.exitCode !== 0)) result.isError = true;
        if (typeof item.exitCode === "number") result.exitCode = item.exitCode;
        return [...events, result];
      }
      case "mcpToolCall": {
        const events = this.openCommands.has(item.id) ? [] : this.itemStarted(item);
        this.openCommands.delete(item.id);
        const failed = item.status === "failed";
        const content = JSON.stringify(failed ? (item.error ?? null) : (item.result ?? null));
        return [...events, { type: "tool_result", toolUseId: item.id, content, ...(failed ? { isError: true } : {}) }];
      }
      case "fileChange": {
        const changes = Array.isArray(item.changes) ? item.changes : [];
        const events = this.patchUpdated(item.id, changes);
        for (const change of changes) {
          const key = this.fileKey(item.id, change.path);
          const open = this.openFiles.get(key);
          if (open && !open.settled) events.push(this.settleFile(key, change, item.status));
        }
        return events;
      }
      default:
        return [];
    }
  }

  /** Previews name files relative to the cwd, completions absolute: key rows by the cwd-relative path. */
  /** The files a fileChange item changes, as far as its notifications have said (for its approval request). */
  filesOf(itemId: string): string[] {
    const paths: string[] = [];
    for (const [key, open] of this.openFiles) if (key.startsWith(`${itemId}:`)) paths.push(open.change.path);
    return paths;
  }

  private fileKey(itemId: string, path: string): string {
    return `${itemId}:${relativeToCwd(path, this.cwd)}`;
  }

  /** One Write/Edit row per file as soon as its path is known. */
  private patchUpdated(itemId: string, changes: FileUpdateChange[]): AgentEvent[] {
    const events: AgentEvent[] = [];
    for (const change of changes) {
      if (!isRecord(change) || typeof change.path !== "string" || change.path === "") continue;
      const key = this.fileKey(itemId, change.path);
      const open = this.openFiles.get(key);
      if (open) {
        open.change = change;
        continue;
      }
      this.openFiles.set(key, { change, settled: false });
      const add = isRecord(change.kind) && change.kind.type === "add";
      events.push({
        type: "tool_use",
        id: key,
        name: add ? "Write" : "Edit",
        input: { path: change.path },
        kind: add ? "file_write" : "file_edit",
        path: relativeToCwd(change.path, this.cwd),
        startedAt: this.now(),
      });
    }
    return events;
  }

  private settleFile(key: string, change: FileUpdateChange, status: unknown): AgentEventOf<"tool_result"> {
    const open = this.openFiles.get(key);
    if (open) open.settled = true;
    const diff = typeof change.diff === "string" ? change.diff : "";
    const stats = diffStats(diff);
    // An added file's "diff" may be its plain content.
    const isAdd = isRecord(change.kind) && change.kind.type === "add";
    const { added, removed } = isAdd && stats.added === 0 && diff !== "" ? { added: diff.replace(/\n$/, "").split("\n").length, removed: 0 } : stats;
    const failed = status === "failed" || status === "declined";
    return { type: "tool_result", toolUseId: key, content: `${status === "declined" ? "declined" : failed ? "failed" : "applied"} +${added} -${removed}`, ...(failed ? { isError: true } : {}) };
  }

  private textDelta(itemId: string, delta: string): AgentEvent[] {
    if (delta === "") return [];
    const events: AgentEvent[] = [...this.closeThinking()];
    if (!this.messagesWithDeltas.has(itemId)) {
      this.messagesWithDeltas.add(itemId);
      // Consecutive agent messages read as paragraphs.
      if (this.textItems++ > 0) events.push({ type: "text_delta", delta: "\n\n" });
    }
    if (!this.sawText) {
      this.sawText = true;
      events.push(this.turnSentAt === null ? { type: "status", label: "streaming" } : { type: "status", label: "streaming", ttftMs: this.now() - this.turnSentAt });
    }
    events.push({ type: "text_delta", delta });
    return events;
  }

  private thinkingDelta(itemId: string, delta: string): AgentEvent[] {
    if (delta === "") return [];
    const events: AgentEvent[] = [];
    if (!this.thinkingItems.has(itemId)) {
      events.push(...this.closeThinking());
      this.thinkingItems.add(itemId);
      events.push({ type: "thinking_start" });
    }
    events.push({ type: "thinking_delta", delta });
    return events;
  }

  private closeThinking(itemId?: string): AgentEvent[] {
    if (itemId !== undefined) return this.thinkingItems.delete(itemId) ? [{ type: "thinking_end" }] : [];
    const count = this.thinkingItems.size;
    this.thinkingItems.clear();
    return Array.from({ length: count }, () => ({ type: "thinking_end" }) as const);
  }

  private addUsage(last: TokenUsageBreakdown | undefined): void {
    if (!isRecord(last)) return;
    const add = (key: keyof typeof this.usage, value: unknown) => {
      if (typeof value === "number") this.usage[key] += value;
    };
    add("input_tokens", last.inputTokens);
    add("output_tokens", last.outputTokens);
    add("cached_read_tokens", last.cachedInputTokens);
    add("thought_tokens", last.reasoningOutputTokens);
    add("total_tokens", last.totalTokens);
    this.sawUsage = true;
  }

  private error(p: Record<string, unknown>): AgentEvent[] {
    const error = isRecord(p.error) ? p.error : {};
    const message = typeof error.message === "string" ? error.message : "codex reported an error";
    if (p.willRetry === true) return [{ type: "status", label: "retrying", detail: message }];
    const code = codexErrorCode(error.codexErrorInfo, message);
    this.lastError = { code, message };
    return [{ type: "error", message, code }];
  }
}


/** Added/removed line counts of a unified diff (headers excluded). */
export function diffStats(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of diff.split("\n")) {
    if (line.startsWith("+++") || line.startsWith("---")) continue;
    if (line.startsWith("+")) added++;
    else if (line.startsWith("-")) removed++;
  }
  return { added, removed };
}
