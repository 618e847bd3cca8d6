/**
 * The contract between the run service and a stateful JSON-RPC transport (ACP, pi rpc, codex app-server).
 * The run service spawns the child and hands over its pipes; the transport owns the protocol from then on and
 * exposes the unified AgentEvent stream, a protocol-level cancel, and one final result.
 */
import type { AgentEvent } from "../../contracts/events.ts";
import type { ChildStdin } from "../../platform/process.ts";
import type { AskApproval } from "../approval-channel.ts";
import type { PermissionMode } from "../../contracts/approvals.ts";
import type { Machine } from "../../machines/machine.ts";

/** The pipes of one spawned agent process. */
export type TransportIO = {
  stdin: ChildStdin;
  stdout: AsyncIterable<Uint8Array>;
  stderr?: AsyncIterable<Uint8Array>;
};

/** One external MCP server to forward to the agent (shape of `.od/mcp-config.json` entries). */
export type McpServerConfig = {
  name: string;
  /** `stdio` when absent. */
  type?: "stdio" | "http" | "sse";
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  headers?: Record<string, string>;
};

/**
 * The few def facts the transports read, copied from the RuntimeAgentDef by the run service, so this folder does not
 * depend on the catalog's file.
 */
export type TransportDefFacts = {
  /** The def id (used only in messages and the AMR model-unavailable code). */
  id?: string;
  /** ACP `mcpServers[].env` as `[{name,value}]` (default) or `{KEY: value}`. */
  acpMcpEnvFormat?: "array" | "map";
  /** Withhold stdio MCP servers from agents whose initialize `agentInfo.version` is ≥ this. */
  acpStdioMcpRemovedInVersion?: string;
  /** Resume with ACP `session/load` when the agent advertises `loadSession`. */
  resumesSessionViaAcpLoad?: boolean;
  /** A `turn_end` session update finishes the prompt without waiting for the RPC response. */
  acpTurnEndCompletesPrompt?: boolean;
  /** `file-url`: image resource links as `file://` URLs with a MIME type (Kilo); raw paths otherwise. */
  acpImagePathFormat?: "path" | "file-url";
  /** Session-file dir for pi rpc (default `<cwd>/.pi/sessions`). */
  piRpcSessionDir?: string;
};

/** Everything a transport needs besides the pipes. */
export type TransportOptions = {
  /** Absolute project folder the agent runs in. */
  cwd: string;
  /** The composed prompt. */
  prompt: string;
  /** Model id; null, undefined or `default` means "use the CLI's default". */
  model?: string | null;
  /** Reasoning effort / thinking level. */
  reasoning?: string | null;
  /** Absolute paths of validated image attachments, where the agent runs. */
  imagePaths: string[];
  /** The same images on this machine when that is elsewhere (a remote run), for transports that send their bytes. */
  localImagePaths?: string[];
  mcpServers: McpServerConfig[];
  /** Native session to continue (ACP session id, codex thread id, pi session file). */
  resumeSessionId?: string | null;
  def: TransportDefFacts;
  /** Environment of the child (and of ours for protocol knobs like `OD_ACP_STAGE_TIMEOUT_MS`). */
  env: Record<string, string | undefined>;
  /**
   * Start a fresh process of the same agent and hand back its pipes. Must resolve only once the previous process
   * tree has exited (the AMR continuation requires a quiescent predecessor).
   */
  respawn?: () => Promise<TransportIO>;
  /**
   * Set for runs in `ask` or `read-only` mode: the agent's permission requests are asked here and answered as it
   * says. Absent: the transport approves them itself (`bypass`).
   */
  askApproval?: AskApproval;
  /** The run's permission mode, for transports that also set the agent's own policy by it (codex's sandbox). */
  permissionMode?: PermissionMode;
  /** Diagnostics sink (malformed frames, ignored requests, …). */
  log?: (msg: string) => void;
  /**
   * The machine the agent runs on, for what a transport reads beside the agent's pipes (pi's session files, which are
   * in the project folder there). Absent: this machine.
   */
  machine?: Pick<Machine, "listTree">;
};

/** A typed failure of a protocol session. */
export type ProtocolFailure = { code: string; message: string; retryable?: boolean };

/** How the session ended. */
export type ProtocolResult = {
  status: "completed" | "cancelled" | "failed";
  /** Native session handle to resume later. */
  sessionId?: string;
  error?: ProtocolFailure;
};

/** A live protocol session over one (or, for the AMR continuation, two successive) agent processes. */
export interface ProtocolSession {
  /** Unified events; ends when the session is over. */
  events: AsyncIterable<AgentEvent>;
  /** Protocol-level cancel (session/cancel, abort, turn/interrupt); the run service escalates after it. */
  cancel(): Promise<void>;
  /** Settles once, never rejects. */
  result: Promise<ProtocolResult>;
}

/** Every transport has this shape. */
export type StartTransport = (io: TransportIO, options: TransportOptions) => ProtocolSession;

/** `default`, empty, null and undefined all mean "no explicit model". */
export function explicitModel(model: string | null | undefined): string | null {
  if (model === null || model === undefined) return null;
  const trimmed = model.trim();
  return trimmed === "" || trimmed === "default" ? null : trimmed;
}
