/**
 * One `execute`: create or resume a Harness session, forward its events as frames, wait for the turn to go idle,
 * flush, and answer with exactly one `result`. Every path (create failure, resume rejection, harness error,
 * cancel) ends in a `result`, so the host never has to guess.
 */
import { randomUUID } from "node:crypto";
import { ProfileErrorCode, V } from "./protocol.mjs";

/**
 * @typedef {import("./index.mjs").Harness} Harness
 * @typedef {import("./index.mjs").HarnessEvent} HarnessEvent
 * @typedef {import("./index.mjs").ExecuteCommand} ExecuteCommand
 * @typedef {(frame: Record<string, unknown>) => void} Emit
 */

/** @param {unknown} error */
const messageOf = (error) => (error instanceof Error ? error.message : String(error));

/**
 * Start one run. `cancel()` may be called at any time, even before the session exists (it is latched).
 * @param {ExecuteCommand} command
 * @param {Harness} harness
 * @param {Emit} emit
 */
export function startExecution(command, harness, emit) {
  const requestId = command.requestId;
  /** @type {string | undefined} */
  let sessionId;
  let cancelRequested = false;
  const frame = (/** @type {string} */ type, /** @type {Record<string, unknown>} */ fields) =>
    emit({ v: V, type, request_id: requestId, ...fields });

  async function run() {
    const resuming = command.resumeSessionId !== undefined;
    const sessionOptions = { cwd: command.cwd, model: command.model, reasoningEffort: command.reasoningEffort };
    try {
      const session = resuming
        ? await harness.resumeSession({ ...sessionOptions, sessionId: /** @type {string} */ (command.resumeSessionId) })
        : await harness.createSession({ ...sessionOptions, sessionId: `od-${randomUUID()}` });
      sessionId = session.sessionId;
    } catch (error) {
      const code = resuming ? ProfileErrorCode.RESUME_REJECTED : ProfileErrorCode.SESSION_CREATE_FAILED;
      frame("result", {
        status: "failed",
        session_id: command.resumeSessionId ?? "",
        resume_rejected: resuming,
        error: { code, message: messageOf(error) },
      });
      return 1;
    }
    const id = sessionId;
    frame("session", { session_id: id, resumed: resuming });

    const turn = followTurn(frame);
    const unsubscribe = harness.subscribe(id, turn.onEvent);
    /** @type {unknown} */
    let promptError;
    try {
      const idle = harness.sendPrompt(id, command.prompt);
      if (cancelRequested) await harness.cancel(id).catch(() => undefined);
      await idle;
    } catch (error) {
      promptError = error;
    } finally {
      unsubscribe();
    }
    await harness.flush().catch((/** @type {unknown} */ error) => {
      promptError ??= error;
    });
    const outcome = turn.outcome(promptError);
    frame("result", { session_id: id, resume_rejected: false, output: turn.text(), ...outcome });
    return outcome.status === "failed" ? 1 : 0;
  }

  return {
    requestId,
    /** Resolves with the exit code once `result` has been emitted. */
    done: run(),
    /** Ask the harness to abort the turn (latched until the session exists). */
    cancel() {
      if (cancelRequested) return;
      cancelRequested = true;
      if (sessionId !== undefined) harness.cancel(sessionId).catch(() => undefined);
    },
  };
}

/**
 * Maps harness events of one turn to frames and remembers how the turn ended.
 * @param {(type: string, fields: Record<string, unknown>) => void} frame
 */
function followTurn(frame) {
  let text = "";
  let sawTextDelta = false;
  /** @type {Extract<HarnessEvent, { type: "turn/end" }> | undefined} */
  let turnEnd;

  /** @param {HarnessEvent} event */
  function onEvent(event) {
    switch (event.type) {
      case "assistant/chunk":
        if (event.kind === "text-delta") {
          sawTextDelta = true;
          text += event.delta;
          frame("text", { content: event.delta });
        } else if (event.kind === "reasoning-delta") {
          frame("thinking", { content: event.delta });
        }
        return;
      case "tool/call":
        frame("tool_call", {
          call_id: event.callId,
          name: event.name,
          arguments: typeof event.arguments === "string" ? event.arguments : JSON.stringify(event.arguments ?? {}),
        });
        return;
      case "tool/result":
        frame("tool_result", {
          call_id: event.callId,
          name: event.name,
          output: typeof event.output === "string" ? event.output : JSON.stringify(event.output),
          is_error: event.isError === true,
        });
        return;
      case "assistant/message":
        // A harness that did not stream deltas still owes the host the answer text.
        if (!sawTextDelta && event.text) {
          text += event.text;
          frame("text", { content: event.text });
        }
        sawTextDelta = false;
        if (event.usage) {
          const u = event.usage;
          frame("usage", {
            provider: u.provider,
            model: u.model,
            input_tokens: u.inputTokens,
            output_tokens: u.outputTokens,
            ...(u.cacheReadTokens === undefined ? {} : { cache_read_tokens: u.cacheReadTokens }),
            ...(u.cacheWriteTokens === undefined ? {} : { cache_write_tokens: u.cacheWriteTokens }),
          });
        }
        return;
      case "turn/end":
        turnEnd = event;
        return;
      default:
        return;
    }
  }

  /**
   * @param {unknown} promptError
   * @returns {{ status: "completed" | "cancelled" | "failed", stop_reason?: string, error?: { code: string, message: string } }}
   */
  function outcome(promptError) {
    if (turnEnd?.reason === "aborted") return { status: "cancelled", stop_reason: "aborted" };
    if (promptError !== undefined) {
      return { status: "failed", error: { code: ProfileErrorCode.TURN_FAILED, message: messageOf(promptError) } };
    }
    if (turnEnd === undefined) {
      return { status: "failed", error: { code: ProfileErrorCode.MISSING_TURN_END, message: "the harness went idle without ending the turn" } };
    }
    if (turnEnd.reason === "completed" || turnEnd.reason === "max-tokens") return { status: "completed", stop_reason: turnEnd.reason };
    const code = turnEnd.reason === "blocked" ? ProfileErrorCode.TURN_BLOCKED : ProfileErrorCode.TURN_FAILED;
    return { status: "failed", stop_reason: turnEnd.reason, error: { code, message: turnEnd.message ?? `turn ended: ${turnEnd.reason}` } };
  }

  return { onEvent, outcome, text: () => text };
}
