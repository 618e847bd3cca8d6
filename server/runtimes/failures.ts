/**
 * Why an agent run failed, in terms a person can act on. The CLIs report auth, quota and provider outages as
 * free text (and often with a misleading exit code, real-clis §15.3), so the combined error text is matched
 * against signatures: auth first (a 401 retried into a 429 is still a login problem), then quota, then upstream,
 * then invalid configuration. Bare status numbers only count next to an HTTP/status context, so "exit code 401"
 * is not auth. Pure: the run service hands in what it saw and puts the result on the run's `end` event.
 */
import type { FailureCategory } from "../contracts/runs.ts";
import { baseAgentDef } from "./registry.ts";
import type { RuntimeAgentDef } from "./types.ts";
import { recognizeSandboxFailure } from "./sandbox-failures.ts";

/** Stable error codes of a failed run (the run's `error` event `code`). A plain list: nothing parses with it. */
export const AGENT_FAILURE_CODES = [
  "AGENT_AUTH_REQUIRED",
  "RATE_LIMITED",
  "UPSTREAM_UNAVAILABLE",
  "AGENT_PROMPT_TOO_LARGE",
  "AGENT_TIMEOUT",
  "AGENT_CANCELED",
  "AGENT_EXECUTION_FAILED",
] as const;
export type AgentFailureCode = (typeof AGENT_FAILURE_CODES)[number];

/** A classified failure: maps onto RunEndEvent `failureCategory`/`failureDetail`/`reason`/`guidance`/`fixCommand`. */
export type AgentFailure = {
  category: FailureCategory;
  code: AgentFailureCode;
  /** Finer reason: `hard_quota`, `rate_limit`, `model_quota`, `empty_output`, `killed_by_signal`, `no_final_record`, … */
  detail?: string;
  /** A sentence for people: what went wrong. */
  message: string;
  /** What the user can do about it. */
  guidance?: string;
  /** One exact command that fixes it (a login command), when there is one. */
  fixCommand?: string;
  /** Retrying the same request later may work (rate limits, outages). */
  retryable?: boolean;
  /** The line of output the classification rests on (trimmed). */
  evidence?: string;
};

/** What the run service saw. `text`: stderr tail plus error records / final result text, not the assistant's prose. */
export type AgentFailureInput = {
  agentId: string;
  text: string;
  exitCode: number | null;
  signal: string | null;
  /** The agent produced any stdout (events, text) before exiting. */
  sawOutput: boolean;
  /** The user (or shutdown) cancelled the run: that is the outcome, whatever the text says. */
  canceled?: boolean;
  /** A watchdog ended the run; the value becomes `detail`. */
  timedOut?: "timeout" | "inactivity_timeout" | "first_output_timeout";
  /** The def of the agent, when the caller has it (local profiles); else looked up among the shipped defs. */
  def?: Pick<RuntimeAgentDef, "id" | "name" | "loginCommand" | "authProbe" | "localProfile">;
};

/** Classify a failed run whose agent reported an error (or exited non-zero). */
export function classifyAgentFailure(input: AgentFailureInput): AgentFailure {
  const agent = describeAgent(input);
  const early = classifyOutcome(input, agent);
  if (early) return early;
  const evidence = lastLine(input.text);
  if (input.exitCode === 0 && !input.sawOutput) return emptyOutput(agent);
  const how = input.exitCode === null ? "failed" : `exited with code ${input.exitCode}`;
  return {
    category: "unknown",
    code: "AGENT_EXECUTION_FAILED",
    message: `${agent.name} ${how}.`,
    guidance: `Check the agent's output above; running \`${agent.id}\` in a terminal usually shows what it needs.`,
    ...(evidence ? { evidence } : {}),
  };
}

/**
 * Classify a run whose transport has a final record (`result`, `turn.completed`, `agent_end`, …) but ended without
 * one: the process was killed or aborted, or exited without doing anything. Do not call it for `plain` output.
 */
export function classifyExitWithoutResult(input: AgentFailureInput): AgentFailure {
  const agent = describeAgent(input);
  const early = classifyOutcome(input, agent);
  if (early) return early;
  if (input.exitCode === 0 && !input.sawOutput) return emptyOutput(agent);
  const how = input.exitCode === null ? "stopped" : `exited with code ${input.exitCode}`;
  const evidence = lastLine(input.text);
  return {
    category: "crash",
    code: "AGENT_EXECUTION_FAILED",
    detail: "no_final_record",
    message: `${agent.name} ${how} before reporting a final result.`,
    guidance: "The agent stopped mid-turn. Retry; if it keeps happening, run it in a terminal to see why.",
    ...(evidence ? { evidence } : {}),
  };
}

type AgentInfo = { id: string; helpId: string; name: string; loginCommand?: string };

function describeAgent(input: AgentFailureInput): AgentInfo {
  const def = input.def ?? baseAgentDef(input.agentId);
  const helpId = def?.localProfile?.baseAgentId ?? def?.authProbe?.classifierAgentId ?? input.agentId;
  const base = helpId === input.agentId ? def : baseAgentDef(helpId);
  const loginCommand = def?.loginCommand ?? base?.loginCommand;
  return { id: input.agentId, helpId, name: def?.name ?? input.agentId, ...(loginCommand ? { loginCommand } : {}) };
}

/** Cancel, text signatures, timeout, signal — in that order; null when none applies. */
function classifyOutcome(input: AgentFailureInput, agent: AgentInfo): AgentFailure | null {
  if (input.canceled) return { category: "cancel", code: "AGENT_CANCELED", message: `The ${agent.name} run was cancelled.` };
  const text = input.text.length > MAX_TEXT ? input.text.slice(-MAX_TEXT) : input.text;
  const matched = classifyText(text, agent);
  if (matched) return matched;
  if (input.timedOut) {
    const what = input.timedOut === "inactivity_timeout" ? "stopped producing output" : input.timedOut === "first_output_timeout" ? "never started producing output" : "ran out of time";
    return {
      category: "timeout",
      code: "AGENT_TIMEOUT",
      detail: input.timedOut,
      message: `${agent.name} ${what}, so od stopped it.`,
      guidance: "Retry; if the agent often works quietly for long stretches, raise the run timeouts.",
      retryable: true,
    };
  }
  const signal = input.signal ?? signalOfExitCode(input.exitCode);
  if (!signal) return null;
  return {
    category: "crash",
    code: "AGENT_EXECUTION_FAILED",
    detail: "killed_by_signal",
    message: `${agent.name} was killed by ${signal}${input.sawOutput ? " mid-turn" : ""}.`,
    guidance: "Something outside od (or the system running out of memory) stopped the agent. Retry the request.",
    retryable: true,
  };
}

const MAX_TEXT = 64 * 1024;

/** Wrapper shells and Node report a child killed by signal N as exit code 128+N. */
const SIGNAL_EXIT_CODES: Record<number, string> = { 129: "SIGHUP", 130: "SIGINT", 134: "SIGABRT", 137: "SIGKILL", 139: "SIGSEGV", 143: "SIGTERM" };

function signalOfExitCode(exitCode: number | null): string | null {
  return exitCode === null ? null : (SIGNAL_EXIT_CODES[exitCode] ?? null);
}

function emptyOutput(agent: AgentInfo): AgentFailure {
  return {
    category: "unknown",
    code: "AGENT_EXECUTION_FAILED",
    detail: "empty_output",
    message: `${agent.name} exited without producing any output.`,
    guidance: `Run \`${agent.id}\` once in a terminal to check that it is signed in and configured, then retry.`,
  };
}

/**
 * An HTTP status number counts only after an HTTP/status context: `HTTP 401`, `HTTP/1.1 503`, `status: 429`,
 * `"statusCode":401`, `error_status`, `error code`, `response code`, `API Error: 529`, `code: 500` — never
 * `exit code 401`.
 */
const STATUS_CONTEXT = String.raw`(?:\bhttp(?:\/\d(?:\.\d)?)?|status(?:[ _-]?code)?|\berror[ _-]code|\bresponse[ _-]code|\bapi[ _-]error|(?<!exit[ _-])\bcode["']?\s*[:=])`;
const withStatus = (codes: string) => new RegExp(`${STATUS_CONTEXT}["'\\s:=]*(?:${codes})\\b`, "i");

const AUTH = [
  /\bunauthori[sz]ed\b/i,
  /\b(invalid|incorrect)[ _-]?api[ _-]?key\b/i,
  /\b(missing|no) api[ _-]?key\b/i,
  /\bapi[ _-]?key\b.{0,24}\b(missing|not set|not found|required|is invalid|expired)\b/i,
  /\bnot (logged|signed) in\b/i,
  /\bplease (log|sign) ?in\b/i,
  /\b(log|sign)[ -]?in required\b/i,
  /\bunauthenticated\b/i,
  /\bauthentication[ _-](failed|required|error)\b/i,
  /\bfailed to authenticate\b/i,
  /\b(token|session|credentials?|login)\b.{0,12}\b(has |have |is )?expired\b/i,
  /(^|[\s'"`(·])\/login\b/i,
  withStatus("401"),
];
const HARD_QUOTA = [
  /\binsufficient[ _](balance|credits?|funds|quota)\b/i,
  /\bquota\b.{0,40}\b(exceeded|exhausted|reached|used up)\b/i,
  /\b(exceeded|exhausted|out of)\b.{0,30}\bquota\b/i,
  /\bcredit balance is too low\b/i,
  /\b(out of|no remaining) credits?\b/i,
  /\bcredits? (exhausted|depleted)\b/i,
  /\b(usage|spending|session|weekly|monthly|daily|\d+-hour) limit (reached|exceeded|hit)\b/i,
  /\breached (your|the) (usage|spending|session) limit\b/i,
  /\bbilling[ _-]?(hard[ _-])?limit/i,
  /\bbilling (details|issue|problem|error|required)\b/i,
  /\bpayment required\b/i,
  withStatus("402"),
];
const MODEL_QUOTA = [/\bRESOURCE_EXHAUSTED\b/];
const RATE_LIMIT = [/\brate[ _-]?limit(ed|s)?\b/i, /\btoo[ _]many[ _]requests\b/i, /\brate_limit_(error|exceeded)\b/i, withStatus("429")];
const UPSTREAM = [
  /\boverloaded(_error)?\b/i,
  /\bservice[ _]unavailable\b/i,
  /\bbad[ _]gateway\b/i,
  /\bgateway[ _]time-?out\b/i,
  /\binternal[ _]?server[ _]?error\b/i,
  /\bexperiencing high demand\b/i,
  withStatus("5\\d\\d"),
];
const NETWORK = [/\bECONNREFUSED\b/, /\bECONNRESET\b/, /\bENOTFOUND\b/, /\bconnection refused\b/i, /\bfetch failed\b/i];
const PROMPT_TOO_LONG = [/\bprompt is too long\b/i, /\bcontext[ _]length[ _]exceeded\b/i, /\bmaximum context length\b/i];
const INVALID_INVOCATION = [/\b(unknown|unrecognized|unexpected) (option|argument|flag)\b/i, /\binvalid value .{0,40}\bfor\b/i];
const MODEL_UNAVAILABLE = [/\b(unknown|invalid|unsupported) model\b/i, /\bmodel\b.{0,60}\b(not found|does not exist|is not supported|not available)\b/i];

function firstMatch(text: string, patterns: readonly RegExp[]): string | null {
  for (const pattern of patterns) {
    const match = pattern.exec(text);
    if (match) return lineAround(text, match.index);
  }
  return null;
}

function classifyText(text: string, agent: AgentInfo): AgentFailure | null {
  let evidence = firstMatch(text, AUTH);
  if (evidence) return { ...authFailure(agent), evidence };
  evidence = firstMatch(text, MODEL_QUOTA);
  if (evidence) return { ...quotaFailure(agent, "model_quota"), evidence };
  evidence = firstMatch(text, HARD_QUOTA);
  if (evidence) return { ...quotaFailure(agent, "hard_quota"), evidence };
  evidence = firstMatch(text, RATE_LIMIT);
  if (evidence) return { ...quotaFailure(agent, "rate_limit"), evidence };
  evidence = firstMatch(text, UPSTREAM);
  if (evidence) return { ...upstreamFailure(agent, "provider_unavailable"), evidence };
  evidence = firstMatch(text, NETWORK);
  if (evidence) return { ...upstreamFailure(agent, "network"), evidence };
  evidence = firstMatch(text, PROMPT_TOO_LONG);
  if (evidence) {
    return {
      category: "config",
      code: "AGENT_PROMPT_TOO_LARGE",
      detail: "prompt_too_large",
      message: `The prompt is too long for the model ${agent.name} used.`,
      guidance: "Reduce the skills or design-system context, shorten the conversation, or pick a model with a larger context window.",
      evidence,
    };
  }
  evidence = firstMatch(text, MODEL_UNAVAILABLE);
  if (evidence) {
    return {
      category: "config",
      code: "AGENT_EXECUTION_FAILED",
      detail: "model_unavailable",
      message: `${agent.name} could not use the selected model.`,
      guidance: "Pick another model in the agent picker (or Default), then retry.",
      evidence,
    };
  }
  evidence = firstMatch(text, INVALID_INVOCATION);
  if (evidence) {
    return {
      category: "config",
      code: "AGENT_EXECUTION_FAILED",
      detail: "invalid_invocation",
      message: `${agent.name} rejected the command line od built for it.`,
      guidance: `The installed ${agent.name} may be a version od does not support; update it, rescan agents, and retry.`,
      evidence,
    };
  }
  const sandbox = recognizeSandboxFailure(text);
  if (sandbox) {
    return { category: "config", code: "AGENT_EXECUTION_FAILED", detail: "sandbox_unavailable", message: `${agent.name} failed: ${sandbox.cause}.`, guidance: sandbox.guidance, evidence: sandbox.evidence };
  }
  return null;
}

function authFailure(agent: AgentInfo): AgentFailure {
  const help = (AUTH_HELP[agent.helpId] ?? genericAuthHelp)(agent);
  return {
    category: "auth",
    code: "AGENT_AUTH_REQUIRED",
    message: `${agent.name} is not signed in, or its credentials were rejected.`,
    guidance: help.guidance,
    ...(help.fixCommand ? { fixCommand: help.fixCommand } : {}),
  };
}

type QuotaDetail = "hard_quota" | "rate_limit" | "model_quota";

const QUOTA_TEXTS: Record<QuotaDetail, (name: string) => { message: string; guidance: string }> = {
  hard_quota: (name) => ({
    message: `${name}'s account has run out of quota or credit.`,
    guidance: "Check the plan or billing of the account the agent uses, or pick another agent or model.",
  }),
  rate_limit: (name) => ({
    message: `${name} was rate limited by its model provider.`,
    guidance: "Wait a minute and retry, or pick another model.",
  }),
  model_quota: (name) => ({
    message: `The quota for the selected ${name} model is used up.`,
    guidance: "Pick another model in the agent picker, or wait for this model's quota to reset.",
  }),
};

function quotaFailure(agent: AgentInfo, detail: QuotaDetail): AgentFailure {
  return { category: "quota", code: "RATE_LIMITED", detail, ...QUOTA_TEXTS[detail](agent.name), retryable: detail !== "hard_quota" };
}

function upstreamFailure(agent: AgentInfo, detail: "provider_unavailable" | "network"): AgentFailure {
  const message =
    detail === "network" ? `${agent.name} could not reach its model provider.` : `${agent.name}'s model provider is overloaded or unavailable.`;
  const guidance = detail === "network" ? "Check the network connection and any proxy or base-URL settings, then retry." : "This is usually temporary: retry in a moment.";
  return { category: "upstream", code: "UPSTREAM_UNAVAILABLE", detail, message, guidance, retryable: true };
}

type AuthHelp = { guidance: string; fixCommand?: string };

const rescan = "then rescan agents in od and retry.";

function genericAuthHelp(agent: AgentInfo): AuthHelp {
  if (agent.loginCommand) return { guidance: `Run \`${agent.loginCommand}\` in a terminal, ${rescan}`, fixCommand: agent.loginCommand };
  return { guidance: `Sign in with ${agent.name} in a terminal (or configure its API key), ${rescan}` };
}

/** Per-agent sign-in advice, keyed by the base agent id (local profiles use their base agent's). */
const AUTH_HELP: Record<string, (agent: AgentInfo) => AuthHelp> = {
  claude: (agent) => {
    const login = agent.loginCommand ?? "claude auth login";
    return {
      guidance:
        `Run \`${login}\` in a terminal (or \`claude setup-token\` for a long-lived token), ${rescan} ` +
        "An ANTHROPIC_API_KEY exported only in your shell rc is not visible when od is started from a GUI.",
      fixCommand: login,
    };
  },
  codex: (agent) => {
    const login = agent.loginCommand ?? "codex login";
    return { guidance: `Run \`${login}\` in a terminal (or set CODEX_API_KEY / OPENAI_API_KEY for od), ${rescan}`, fixCommand: login };
  },
  "cursor-agent": (agent) => {
    const login = agent.loginCommand ?? "cursor-agent login";
    return {
      guidance: `Run \`${login}\` in a terminal (check with \`cursor-agent status\`) or set CURSOR_API_KEY, ${rescan}`,
      fixCommand: login,
    };
  },
  deepseek: () => ({
    guidance: `Put your key in ~/.deepseek/config.toml as api_key = "…", or set DEEPSEEK_API_KEY in od's environment, ${rescan}`,
  }),
  "deepseek-harness": () => ({
    guidance: `Add your DeepSeek API key on the Harness Models page (open \`dsh\`'s web UI), or set DEEPSEEK_API_KEY in od's environment, ${rescan}`,
  }),
  antigravity: (agent) => {
    const login = agent.loginCommand ?? "agy";
    return {
      guidance: `Run \`${login}\` once in a terminal and finish the sign-in (Antigravity keeps its login in the system keyring), ${rescan}`,
      fixCommand: login,
    };
  },
  reasonix: () => ({
    guidance: `Set "apiKey" in ~/.reasonix/config.json (or DEEPSEEK_API_KEY in od's environment), ${rescan}`,
  }),
  qwen: () => ({
    guidance: `Run \`qwen\` in a terminal and pick an auth method with /auth, or set OPENAI_API_KEY (with OPENAI_BASE_URL and OPENAI_MODEL) for an OpenAI-compatible provider, ${rescan}`,
  }),
  opencode: (agent) => {
    const login = agent.loginCommand ?? "opencode auth login";
    return { guidance: `Run \`${login}\` in a terminal and add credentials for the provider of the selected model, ${rescan}`, fixCommand: login };
  },
  "byok-opencode": () => ({
    guidance: "The API key configured for OpenCode (API key) was rejected: update it in od's agent settings, then retry.",
  }),
  copilot: () => ({
    guidance: `Run \`copilot\` in a terminal and sign in with /login, or set COPILOT_GITHUB_TOKEN (or GH_TOKEN) to a token with Copilot access, ${rescan}`,
  }),
  pi: () => ({
    guidance: `Run \`pi\` in a terminal and sign in with /login, or set the provider's API key (e.g. ANTHROPIC_API_KEY, OPENAI_API_KEY) in od's environment, ${rescan}`,
  }),
  qoder: () => ({
    guidance: `Run \`qodercli\` in a terminal and sign in with /login, or set QODER_PERSONAL_ACCESS_TOKEN, ${rescan}`,
  }),
};

/** The line of `text` around `index`, trimmed; a long line is cut to 300 characters around the match. */
function lineAround(text: string, index: number): string {
  const start = text.lastIndexOf("\n", index) + 1;
  const end = text.indexOf("\n", index);
  const line = text.slice(start, end === -1 ? undefined : end);
  if (line.trim().length <= 300) return line.trim();
  const from = Math.max(0, Math.min(index - start - 100, line.length - 300));
  return line.slice(from, from + 300).trim();
}

function lastLine(text: string): string | undefined {
  const lines = text.split("\n").map((line) => line.trim()).filter(Boolean);
  const last = lines.at(-1);
  return last ? last.slice(-300) : undefined;
}
