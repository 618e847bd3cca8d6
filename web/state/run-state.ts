/**
 * The view model of one assistant turn, folded from its RunEvents (live, or stored and replayed as history). These are UI
 * shapes, not wire shapes: the wire types come from server/contracts and are only read here.
 */
import type { AgentQuestion, ApprovalDecision, ApprovalKind, ApprovalResolvedBy, QuestionAnswers } from "../../server/contracts/approvals.ts";
import type { ToolKind } from "../../server/contracts/events.ts";
import type { FailureCategory } from "../../server/contracts/runs.ts";

/** A run of visible answer text (Markdown). */
export interface TextItem {
  kind: "text";
  key: string;
  text: string;
}

/** A thinking block; `open` while it still streams. */
export interface ThinkingItem {
  kind: "thinking";
  key: string;
  text: string;
  open: boolean;
  tokens?: number;
}

/**
 * Where a tool call stands. A call still running when its run ends never reported a result: it is `canceled` when
 * the run was canceled and `interrupted` when the run failed or od stopped under it, never `done` or `error`.
 */
export type ToolState = "running" | "done" | "error" | "canceled" | "interrupted";

/**
 * One tool call with its input, and its result once it settles. A call that started a sub-agent (Claude `Task`)
 * holds that sub-agent's own items in `children`: a child run whose status is this call's `state`.
 */
export interface ToolItem {
  kind: "tool";
  key: string;
  id: string;
  name: string;
  toolKind: ToolKind;
  path?: string;
  input: unknown;
  /** Streamed arguments, before the parsed `input` arrives. */
  inputDraft: string;
  result?: string;
  state: ToolState;
  /** A shell command's exit code, when the CLI reported one. */
  exitCode?: number;
  /** The agent or its permission layer refused the call (shown apart from an ordinary failure). */
  refused?: boolean;
  /** The items of the sub-agent this call started (tool calls, notices), in order. */
  children?: RunItem[];
}

/** Something to tell the user that is not answer text (errors, diagnostics, retries). */
export interface NoticeItem {
  kind: "notice";
  key: string;
  level: "error" | "warning" | "info";
  message: string;
  code?: string;
  /** Where to see more (e.g. the whole of a cut answer), opened in a new tab. */
  link?: { href: string; label: string };
}

/**
 * A question the agent asked before acting (a run in `ask` mode), and what became of it: answered by the person, by
 * the timeout or by a cancel, or left open when the run ended without an answer (`closed`).
 */
export interface ApprovalItem {
  kind: "approval";
  key: string;
  runId: string;
  approvalId: string;
  toolName: string;
  approvalKind: ApprovalKind;
  title: string;
  input: unknown;
  options: ApprovalDecision[];
  /** A question request's questions (Claude Code's AskUserQuestion). */
  questions?: AgentQuestion[];
  decision?: ApprovalDecision;
  by?: ApprovalResolvedBy;
  /** What the person answered a question request with. */
  answers?: QuestionAnswers;
  closed?: boolean;
}

export type RunItem = TextItem | ThinkingItem | ToolItem | NoticeItem | ApprovalItem;

/** Token and cost totals, shown under the answer. */
export interface RunUsage {
  inputTokens?: number;
  outputTokens?: number;
  thoughtTokens?: number;
  cachedReadTokens?: number;
  costUsd?: number;
  durationMs?: number;
  model?: string;
  stopReason?: string;
}

/** How the run ended, for the end banner. */
export interface RunEnding {
  status: "succeeded" | "failed" | "canceled";
  reason: string;
  failureCategory?: FailureCategory;
  failureDetail?: string;
  guidance?: string;
  fixCommand?: string;
  exitCode: number | null;
  signal: string | null;
  files: string[];
  durationMs: number;
}

export interface RunState {
  runId: string;
  agentId?: string;
  model?: string | null;
  /** The latest progress label: `connecting`, `initializing`, `thinking`, `streaming`, `working`, … */
  statusLabel: string;
  /** Daemon timestamps (ms) of the start event, the first output of any kind (thinking, tool call or text) and the end. */
  startedAt?: number;
  firstTokenAt?: number;
  endedAt?: number;
  /** Time to first token: from the start event to the first output of any kind, by the daemon's clock. */
  ttftMs?: number;
  items: RunItem[];
  usage?: RunUsage;
  end?: RunEnding;
  /** Project-relative files the run wrote or edited, in first-touch order. */
  files: string[];
  /** Bounded tail of unparsed stdout/stderr/raw lines. */
  output: string;
  /** The highest event id folded so far (-1 before any), for replay de-duplication. */
  lastEventId: number;
  /** Questions of the agent waiting for the person's answer now (kept by the fold, so nothing scans the items). */
  openApprovals: number;
}

export function emptyRunState(runId: string): RunState {
  return { runId, statusLabel: "connecting", items: [], files: [], output: "", lastEventId: -1, openApprovals: 0 };
}

/** Is the turn over? */
export function isRunOver(state: RunState): boolean {
  return state.end !== undefined;
}
