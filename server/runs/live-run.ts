/** A run while od runs it, and the plan it was started with. */
import type { CreateRunRequest } from "../contracts/runs.ts";
import type { Project } from "../contracts/projects.ts";
import type { PermissionMode } from "../contracts/approvals.ts";
import type { RuntimeAgentDef } from "../runtimes/types.ts";
import type { RunApprovals } from "./approvals.ts";
import type { MidTurnInput } from "./attempt.ts";
import type { DetectedAgents } from "./detected-agents.ts";
import type { RunEventLog } from "./event-log.ts";
import type { RunEnding } from "./outcome.ts";
import type { RunOutputFile } from "./output-file.ts";
import type { ConversationHistory } from "./conversation-history.ts";
import type { RunPlace } from "./run-place.ts";

/** Ends a run: records what it changed, appends `end`, stores the outcome and the folded message. */
export type RunFinisher = (ending: RunEnding, exit: { code: number | null; signal: string | null }) => Promise<void>;

export type LiveRun = {
  id: string;
  log: RunEventLog;
  abort: AbortController;
  input?: MidTurnInput;
  done: Promise<void>;
  /** Removes the run's temp inputs (generated MCP config, a remote run's staging folder). */
  cleanup?: () => void | Promise<void>;
  /** The run's whole answer on disk, written only once the fold is cut. */
  output?: RunOutputFile;
  /** A write of the run's failed (a full disk): the run is stopped and ends failed with it. */
  storeFailure?: unknown;
  /** The open questions of an `ask` or `read-only` run (absent for `bypass`). */
  approvals?: RunApprovals;
  /** How the run ended, as its `end` said, once that is logged: what a bug of ours after it still records (recovery.ts). */
  ended?: LoggedEnding;
};

/** What a run's `end` said: its outcome, exit and the files it lists. */
export type LoggedEnding = { ending: RunEnding; exit: { code: number | null; signal: string | null }; files: string[] };

export type RunPlan = {
  def: RuntimeAgentDef;
  project: Project;
  conversationId: string;
  assistantMessageId: string;
  request: CreateRunRequest;
  model: string | null;
  reasoning: string | null;
  permissionMode: PermissionMode;
  /** The conversation so far: its turns, read when a prompt carries them as a transcript. */
  history: ConversationHistory;
  /** What detection found where the run goes: its flags and models shape the invocation. */
  detected: DetectedAgents;
  /** Where the run works: its machine, its folder there, and how it works with them. */
  place: RunPlace;
};
