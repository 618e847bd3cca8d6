/** Shapes shared by the fake model server's pieces. Only tests and the recorder consume these. */

/** Which wire API a request spoke. */
export type ModelApi = "anthropic" | "chat" | "responses";

/** A directive found in the latest real user message, e.g. `[[od:fail 429 times=2]]`. */
export type Directive = {
  /** Scenario name: text, thinking, write, shell, write-shell, slow, long, hang, drop, status, fail, midstream-error. */
  name: string;
  /** Positional arguments (`401` in `[[od:status 401]]`). */
  positional: string[];
  /** `key=value` arguments. */
  args: Record<string, string>;
  /** The directive as written, used to key "fail N times" counters. */
  raw: string;
};

/** A tool the request offered, flattened across the three APIs. */
export type OfferedTool = {
  name: string;
  /** `custom` = Responses freeform tool (codex apply_patch); everything else is a JSON-schema function. */
  kind: "function" | "custom";
  /** JSON schema of the arguments (functions only). */
  schema?: Record<string, unknown>;
  /** Responses `namespace` tool this function sits in, if any. */
  namespace?: string;
};

/** What the server understood about one model request, independent of its API. */
export type Conversation = {
  api: ModelApi;
  model: string;
  stream: boolean;
  /** Chat `stream_options.include_usage`. */
  includeUsage: boolean;
  /** Every real user prompt (wrappers stripped, tool results excluded), oldest first. */
  userTexts: string[];
  /** Model responses after the latest real user prompt: 0 = first call of the turn, 1 = after a tool result. */
  step: number;
  tools: OfferedTool[];
  /** The agent's working directory, read from system-prompt cues, if any. */
  cwd?: string;
  /** Text of the latest tool result, if the request ends with one. */
  lastToolResult?: string;
};

/** One tool call the fake answers with. */
export type PlannedToolCall = {
  id: string;
  name: string;
  kind: "function" | "custom";
  /** JSON arguments (function tools). */
  argumentsJson: string;
  /** Freeform input (custom tools). */
  input: string;
  namespace?: string;
};

/** How an answer is paced. */
export type Pacing =
  | { kind: "normal" }
  /** One delta per interval until the client hangs up. */
  | { kind: "slow"; intervalMs: number }
  /** Send the stream head, then nothing until the client hangs up. */
  | { kind: "hang" }
  /** Close the socket without answering. */
  | { kind: "drop" }
  /** Stream a little text, then fail mid-stream. */
  | { kind: "midstream-error" };

/** The answer to one request, before it is encoded for an API. */
export type AnswerPlan = {
  kind: "answer";
  thinking?: string;
  /** Text deltas; their concatenation is the answer text. */
  textDeltas: Iterable<string>;
  toolCalls: PlannedToolCall[];
  pacing: Pacing;
};

/** An HTTP error answer (status / fail scenarios). */
export type ErrorPlan = { kind: "error"; status: number; message: string; retryAfter?: string };

/** A request as logged for tests to assert on. */
export type LoggedRequest = {
  seq: number;
  /** ISO time the request arrived. */
  at: string;
  method: string;
  path: string;
  query: string;
  /** Header names lower-cased; credentials replaced by `<redacted>`. */
  headers: Record<string, string>;
  /** Parsed JSON body, or the raw text when it is not JSON, or null when empty. */
  body: unknown;
  /** Which route answered: an API, count_tokens, models, or not_found. */
  route: ModelApi | "count_tokens" | "models" | "not_found";
  /** The detected scenario name (`text` when no directive). */
  scenario?: string;
  directive?: Directive;
  step?: number;
  userMessages?: number;
  toolNames?: string[];
  /** Status code the fake answered with. */
  status: number;
};

/** Options of {@link startFakeModelServer}. */
export type FakeModelServerOptions = {
  /** Interval between deltas of the `slow` scenario (default 100 ms). */
  slowIntervalMs?: number;
  /** Number of text deltas of the `long` scenario (default 200). */
  longDeltas?: number;
  /** Also append every logged request as one JSON line to this file. */
  logFile?: string;
};
