/** Types of @open-design/dsh-runtime (the implementation is plain ESM JavaScript; see HARNESS_INTERFACE.md). */

/** A model as the harness lists it; written verbatim into the `models` frame. */
export type HarnessModel = {
  provider: string;
  provider_name: string;
  id: string;
  name: string;
  /** Reasoning-effort choices this model accepts, e.g. `["low","medium","high"]`. */
  reasoning_options?: string[];
};

export type SessionOptions = {
  /** Absolute working directory of the run. */
  cwd: string;
  /** Session id: minted by the profile (`od-<uuid>`) on create, the host's id on resume. */
  sessionId: string;
  model?: { provider: string; id: string };
  reasoningEffort?: string;
};

/** Events a harness session publishes while a turn runs. */
export type HarnessEvent =
  | { type: "assistant/chunk"; kind: "text-delta" | "reasoning-delta"; delta: string }
  | { type: "tool/call"; callId: string; name: string; arguments: unknown }
  | { type: "tool/result"; callId: string; name: string; output: unknown; isError?: boolean }
  | {
      type: "assistant/message";
      /** Full text of the message (used when no text deltas were streamed). */
      text?: string;
      usage?: {
        provider: string;
        model: string;
        inputTokens: number;
        outputTokens: number;
        cacheReadTokens?: number;
        cacheWriteTokens?: number;
      };
    }
  | { type: "turn/end"; reason: "completed" | "max-tokens" | "aborted" | "failed" | "blocked"; message?: string };

/** What the harness gives the profile. The real dsh provides it; tests use tests/fakes/dsh. */
export interface Harness {
  /** Create a new persistent session with the given id. Rejects when it cannot. */
  createSession(options: SessionOptions): Promise<{ sessionId: string }>;
  /** Cold-resume an existing session. Rejects when the session is unknown or cannot be resumed. */
  resumeSession(options: SessionOptions): Promise<{ sessionId: string }>;
  /** Start a turn; resolves once the session is idle again (rejects if the turn could not run). */
  sendPrompt(sessionId: string, prompt: string): Promise<void>;
  /** Listen to a session's events; returns the unsubscribe function. */
  subscribe(sessionId: string, listener: (event: HarnessEvent) => void): () => void;
  /** Abort the running turn; the session then ends it with `turn/end {reason: "aborted"}`. */
  cancel(sessionId: string): Promise<void>;
  /** Models configured in the harness. */
  listModels(): Promise<HarnessModel[]>;
  /** Persist sessions so a later process can resume them. */
  flush(): Promise<void>;
}

/** What `startup` is called with. */
export type StartupContext = {
  /** Arguments after `--profile open-design`, e.g. `["--stdio"]`. */
  argv: string[];
  harness: Harness;
  stdin: AsyncIterable<Uint8Array | string>;
  /** May return a promise (awaited, so frames are flushed before the host exits). */
  stdout: { write(chunk: string): unknown };
  stderr: { write(chunk: string): unknown };
};

export type ExecuteCommand = {
  type: "execute";
  requestId: string;
  cwd: string;
  prompt: string;
  resumeSessionId?: string;
  model?: { provider: string; id: string };
  reasoningEffort?: string;
  mcpServers: unknown[];
};
export type HostCommand = ExecuteCommand | { type: "cancel"; requestId: string };

export const USAGE: string;
export function startup(context: StartupContext): Promise<number>;
export function parseHostCommand(
  line: string,
): { ok: true; command: HostCommand } | { ok: false; requestId?: string; message: string };
export function handshakeFrame(type: "ready" | "probe"): Record<string, unknown>;
export function protocolErrorFrame(requestId: string | undefined, code: string, message: string): Record<string, unknown>;
export const ProfileErrorCode: Readonly<Record<
  "BUSY" | "INVALID_COMMAND" | "SESSION_CREATE_FAILED" | "RESUME_REJECTED" | "MISSING_TURN_END" | "TURN_FAILED" | "TURN_BLOCKED" | "MODELS_FAILED",
  string
>>;
export const V: 1;
export const PLUGIN_VERSION: string;
export const PROTOCOL_VERSION: 1;
export const RUNTIME_NAME: "open-design";
export const COMPATIBILITY_GENERATION: string;
export const CAPABILITIES: Readonly<{ session_resume: true; session_cancel: true; structured_events: true }>;
export function readLines(source: AsyncIterable<Uint8Array | string>): AsyncGenerator<string>;
