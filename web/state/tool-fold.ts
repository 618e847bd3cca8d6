/**
 * Tool calls into the run tree: a call lands in the list of the
 * sub-agent that made it (`parentToolUseId`), a call that starts a sub-agent opens a child list, results settle
 * their call, and refusals are marked apart from ordinary failures.
 */
import type { ToolKind } from "../../server/contracts/events.ts";
import type { ItemList, RunDraft } from "./run-draft.ts";
import type { RunItem, ToolItem, ToolState } from "./run-state.ts";

/** What a tool_use says about a call. */
export interface ToolUseFacts {
  id: string;
  name: string;
  kind: ToolKind;
  input: unknown;
  path?: string;
  parentToolUseId?: string;
}

/** What a tool_result says about a call. */
export interface ToolResultFacts {
  toolUseId: string;
  content: string;
  isError?: boolean;
  exitCode?: number;
  parentToolUseId?: string;
}

/** The code of an error event saying the agent refused a tool call od had approved. */
export const PERMISSION_REFUSED = "AGENT_PERMISSION_REFUSED";

/** Claude's words when a tool was denied for lack of permission (no prompt could be shown headless). */
const REFUSAL_TEXT = /requested permissions? to use .+ but you haven't granted it|permission to use .+ (was|has been) denied/i;

export function newTool(key: string, id: string, name: string): ToolItem {
  return { kind: "tool", key, id, name, toolKind: "other", input: undefined, inputDraft: "", state: "running" };
}

/** The call `id` in `list`, made writable; added (running) when it is not there yet. */
export function toolIn(draft: RunDraft, list: ItemList, id: string, name: string): ToolItem {
  const index = list.toolCall(id);
  return index >= 0 ? list.edit<ToolItem>(index) : list.add(newTool(draft.key(), id, name));
}

export function applyToolUse(draft: RunDraft, facts: ToolUseFacts): ToolItem {
  const tool = toolIn(draft, draft.list(facts.parentToolUseId), facts.id, facts.name);
  tool.name = facts.name;
  tool.toolKind = facts.kind;
  tool.input = facts.input;
  if (facts.path) tool.path = facts.path;
  // A sub-agent is a child run: it shows as one (empty, running) before its first call arrives.
  if (facts.kind === "task" && !tool.children) tool.children = [];
  return tool;
}

export function applyToolResult(draft: RunDraft, facts: ToolResultFacts): ToolItem {
  const tool = toolIn(draft, draft.list(facts.parentToolUseId), facts.toolUseId, "tool");
  tool.result = facts.content;
  tool.state = facts.isError ? "error" : "done";
  if (facts.exitCode !== undefined) tool.exitCode = facts.exitCode;
  if (facts.isError && REFUSAL_TEXT.test(facts.content)) tool.refused = true;
  return tool;
}

/** An AGENT_PERMISSION_REFUSED error follows the failed result of the call it is about: mark that call. */
export function markLastFailedRefused(draft: RunDraft): void {
  const path = lastFailedPath(draft.state.items);
  if (!path) return;
  let list = draft.root;
  for (const [depth, index] of path.entries()) {
    const tool = list.edit<ToolItem>(index);
    if (depth === path.length - 1) {
      tool.refused = true;
      return;
    }
    list = draft.list(tool.id);
  }
}

/** What a call still running becomes when its run ends: it never reported a result, so it did not finish. */
export type UnfinishedState = Extract<ToolState, "canceled" | "interrupted">;

/** The state of calls left running by a run that ended with `status` (a crash recovery ends a run `failed`). */
export function unfinishedStateFor(status: "succeeded" | "failed" | "canceled"): UnfinishedState | "done" {
  return status === "succeeded" ? "done" : status === "canceled" ? "canceled" : "interrupted";
}

/** When the run ends, calls still running (at any depth) end with it; a todo snapshot is never cut off. */
export function settleRunningTools(draft: RunDraft, state: UnfinishedState | "done"): void {
  settleList(draft, draft.root, state);
}

function settleList(draft: RunDraft, list: ItemList, state: UnfinishedState | "done"): void {
  list.items.forEach((item, index) => {
    if (item.kind !== "tool") return;
    if (item.state === "running") list.edit<ToolItem>(index).state = item.toolKind === "todo" ? "done" : state;
    if (item.children && hasRunning(item.children)) settleList(draft, draft.list(item.id), state);
  });
}

function hasRunning(items: readonly RunItem[]): boolean {
  return items.some((item) => item.kind === "tool" && (item.state === "running" || (item.children !== undefined && hasRunning(item.children))));
}

function lastFailedPath(items: readonly RunItem[]): number[] | undefined {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.kind !== "tool") continue;
    const below = item.children ? lastFailedPath(item.children) : undefined;
    if (below) return [i, ...below];
    if (item.state === "error") return [i];
  }
  return undefined;
}
