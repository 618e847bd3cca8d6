/**
 * How an attempt ended, judged by its final record rather than its exit code alone (Claude Code exits 0 on
 * SIGINT, Copilot on abort, codex app-server on EOF; opencode exits 0 after refusing a write). Pure.
 */
import type { FailureCategory, RunWarning } from "../contracts/runs.ts";
import { classifyAgentFailure } from "../runtimes/failures.ts";
import type { AttemptOutcome } from "./attempt.ts";

export type RunEnding = {
  status: "succeeded" | "failed" | "canceled";
  failureCategory?: FailureCategory;
  failureDetail?: string;
  reason: string;
  errorCode?: string;
  guidance?: string;
  fixCommand?: string;
  /**
   * The agent's own errors this ending explains (a transport that broke under it reads to the agent as "pi exited
   * before the run finished"): the stored message carries the run's reason in their place.
   */
  symptoms?: string[];
  /** A succeeded run whose tool calls mostly failed: which, and the likely cause. */
  warning?: RunWarning;
};

/** Signatures of a native session the CLI no longer knows (the run reseeds once with the full transcript). */
const STALE_SESSION =
  /no conversation found|session[^\n]{0,40}(not found|expired|does not exist|unknown|invalid)|thread[^\n]{0,40}not found|no rollout found|resume_rejected|DSH_PROFILE_RESUME_REJECTED|PI_PARENT_SESSION_FAILED|AGENT_SESSION_RESUME_FAILED|is already in use/i;

export function looksLikeStaleSession(outcome: AttemptOutcome): boolean {
  if (outcome.canceled || outcome.sawOutput) return false;
  const text = [outcome.protocolResult?.error?.code, outcome.protocolResult?.error?.message, ...outcome.errors.map((e) => `${e.code ?? ""} ${e.message}`), outcome.stderrTail].join("\n");
  return STALE_SESSION.test(text);
}

export function judgeAttempt(agentId: string, agentName: string, outcome: AttemptOutcome): RunEnding {
  if (outcome.canceled) return { status: "canceled", failureCategory: "cancel", reason: "canceled" };

  const machine = outcome.machineFailure;
  if (machine) {
    const category = machine.code === "REMOTE_CONNECTION_LOST" ? "upstream" : "config";
    const symptoms = outcome.errors.filter((error) => error.terminal).map((error) => error.message);
    if (outcome.protocolResult?.error) symptoms.push(outcome.protocolResult.error.message);
    return { status: "failed", failureCategory: category, failureDetail: machine.detail, errorCode: machine.code, reason: machine.reason, symptoms };
  }

  if (outcome.spawnError) {
    const missing = ["ENOENT", "ENOTDIR"].includes(outcome.spawnError.code);
    return {
      status: "failed",
      failureCategory: "config",
      failureDetail: missing ? "cli_not_installed" : "spawn_failed",
      errorCode: missing ? "AGENT_NOT_INSTALLED" : "SPAWN_FAILED",
      reason: missing ? `${agentName} is not installed (or no longer on PATH)` : `${agentName} could not be started (${outcome.spawnError.code})`,
    };
  }

  if (outcome.timedOut) {
    return {
      status: "failed",
      failureCategory: "timeout",
      failureDetail: outcome.timedOut === "first_output" ? "first_output_timeout" : "inactivity_timeout",
      errorCode: "AGENT_TIMEOUT",
      reason:
        outcome.timedOut === "first_output"
          ? `${agentName} produced no output in time and was stopped`
          : `${agentName} went silent for too long and was stopped`,
    };
  }

  const protocolFailed = outcome.protocolResult?.status === "failed" ? outcome.protocolResult.error : undefined;
  const terminal = [...outcome.errors].reverse().find((e) => e.terminal) ?? (protocolFailed ? { message: protocolFailed.message, code: protocolFailed.code } : undefined);
  const exitCode = outcome.exit?.code ?? null;
  const signal = outcome.exit?.signal ?? null;
  const nonZero = (exitCode !== null && exitCode !== 0) || (signal !== null && !outcome.protocolResult);
  const protocolCompleted = outcome.protocolResult?.status === "completed";

  if (terminal || (nonZero && !protocolCompleted)) {
    const text = [terminal?.message, ...outcome.errors.map((e) => e.message), outcome.stderrTail].filter(Boolean).join("\n");
    const verdict = classifyAgentFailure({ agentId, text, exitCode, signal, sawOutput: outcome.sawOutput });
    return {
      status: "failed",
      failureCategory: verdict.category,
      ...(verdict.detail ? { failureDetail: verdict.detail } : {}),
      errorCode: terminal?.code ?? verdict.code,
      reason: terminal?.message ?? verdict.message,
      ...(verdict.guidance ? { guidance: verdict.guidance } : {}),
      ...(verdict.fixCommand ? { fixCommand: verdict.fixCommand } : {}),
    };
  }

  if (!outcome.sawOutput) {
    return {
      status: "failed",
      failureCategory: "unknown",
      failureDetail: "empty_output",
      errorCode: "EMPTY_OUTPUT",
      reason: `${agentName} finished without producing any output`,
    };
  }
  const warning = outcome.toolCalls?.warning(outcome.stderrTail);
  return { status: "succeeded", reason: "completed", ...(warning ? { warning } : {}) };
}
