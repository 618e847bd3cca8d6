/**
 * The host's side of one profile run, as a pure state machine: frames in, AgentEvents + commands to send + (once)
 * the final result out. No I/O, so every violation can be tested by feeding scripted frames.
 *
 *   awaiting_ready ──ready──▶ executing (execute sent) ──session──▶ in_session ──result──▶ done
 *   any violation ──▶ done (failed, typed DSH_PROFILE_* error)
 */
import type { AgentEvent } from "../../../contracts/events.ts";
import { toolUseEvent } from "../../streams/tool-kind.ts";
import type { ProtocolFailure, ProtocolResult } from "../types.ts";
import { DshProfileErrorCode as Code, dshFailure, profileCode } from "./errors.ts";
import { parseFrame, type ExecuteCommand, type HostCommand, type ProfileFrame } from "./frames.ts";

/** What the host must do after one input. */
export type Step = { events: AgentEvent[]; send: HostCommand[]; done?: ProtocolResult };

export type DshRunPlan = {
  /** Scopes every run frame (the OD run id). */
  requestId: string;
  cwd: string;
  prompt: string;
  /** `provider/model`, or null for the harness default. */
  model: string | null;
  reasoningEffort: string | null;
  resumeSessionId: string | null;
};

type Phase = "awaiting_ready" | "executing" | "in_session" | "done";

export class DshProfileStateMachine {
  private phase: Phase = "awaiting_ready";
  private sessionId: string | undefined;
  private cancelRequested = false;
  private thinkingOpen = false;
  /** Run frames that carried another request id (ignored). */
  ignoredFrames = 0;

  constructor(private readonly plan: DshRunPlan) {}

  get isDone(): boolean {
    return this.phase === "done";
  }

  /** One complete stdout line; `unterminated` when it is what was left at EOF without a newline. */
  onLine(line: string, unterminated = false): Step {
    if (this.phase === "done" || line.trim() === "") return empty();
    const parsed = parseFrame(line);
    switch (parsed.kind) {
      case "malformed":
        return this.fail(unterminated ? Code.TRUNCATED_FRAME : Code.MALFORMED_FRAME, parsed.message);
      case "invalid":
        return this.fail(Code.INVALID_FRAME, parsed.message);
      case "unknown":
        // A newer profile's addition: keep it visible, never fatal.
        return { events: [{ type: "raw", line }], send: [] };
      case "frame":
        return this.onFrame(parsed.frame);
    }
  }

  /** A line longer than MAX_FRAME_BYTES. */
  onFrameTooLarge(bytes: number): Step {
    return this.fail(Code.FRAME_TOO_LARGE, `frame of ${bytes}+ bytes exceeds the 1 MiB limit`);
  }

  /** stdout ended. */
  onEof(): Step {
    if (this.phase === "done") return empty();
    return this.fail(Code.MISSING_RESULT, "the profile exited without a result frame");
  }

  /** The host wants to stop: send `cancel` now, or right after `execute` if the handshake is still pending. */
  requestCancel(): Step {
    if (this.phase === "done" || this.cancelRequested) return empty();
    this.cancelRequested = true;
    if (this.phase === "awaiting_ready") return empty();
    return { events: [], send: [{ v: 1, type: "cancel", request_id: this.plan.requestId }] };
  }

  /** Ends the run with a typed error (also used by the session for I/O failures). */
  fail(code: string, message: string): Step {
    if (this.phase === "done") return empty();
    const events = this.closeThinking();
    events.push({ type: "error", code, message, terminal: true });
    return this.finish(events, { status: "failed", error: dshFailure(code, message) });
  }

  private onFrame(frame: ProfileFrame): Step {
    if (this.phase === "awaiting_ready") return this.onHandshake(frame);
    if (frame.type === "ready" || frame.type === "probe") return this.fail(Code.PROTOCOL_ERROR, `unexpected second ${frame.type} frame`);
    if (frame.type === "models") {
      this.ignoredFrames += 1;
      return empty();
    }
    if ("request_id" in frame && frame.request_id !== undefined && frame.request_id !== this.plan.requestId) {
      this.ignoredFrames += 1;
      return empty();
    }
    switch (frame.type) {
      case "protocol_error":
        return this.fail(profileCode(frame.code), frame.message);
      case "session":
        return this.onSession(frame.session_id, frame.resumed);
      case "result":
        return this.onResult(frame);
      default:
        if (this.phase !== "in_session") return this.fail(Code.PROTOCOL_ERROR, `${frame.type} frame before session`);
        return { events: this.contentEvents(frame), send: [] };
    }
  }

  private onHandshake(frame: ProfileFrame): Step {
    if (frame.type === "protocol_error") return this.fail(profileCode(frame.code), frame.message);
    if (frame.type !== "ready") return this.fail(Code.PROTOCOL_ERROR, `expected ready as the first frame, got ${frame.type}`);
    if (frame.protocol_version !== 1 || frame.runtime !== "open-design") {
      return this.fail(Code.INCOMPATIBLE, `profile speaks ${frame.runtime} protocol ${frame.protocol_version}; od needs open-design protocol 1`);
    }
    const model = toModelRef(this.plan.model);
    if (model === "invalid") return this.fail(Code.INVALID_MODEL, `model must be provider/model, got ${JSON.stringify(this.plan.model)}`);
    this.phase = "executing";
    const execute: ExecuteCommand = {
      v: 1,
      type: "execute",
      request_id: this.plan.requestId,
      cwd: this.plan.cwd,
      prompt: this.plan.prompt,
      mcp_servers: [],
    };
    if (this.plan.resumeSessionId) execute.resume_session_id = this.plan.resumeSessionId;
    if (model) execute.model = model;
    if (this.plan.reasoningEffort) execute.reasoning_effort = this.plan.reasoningEffort;
    const send: HostCommand[] = [execute];
    if (this.cancelRequested) send.push({ v: 1, type: "cancel", request_id: this.plan.requestId });
    return { events: [{ type: "status", label: "initializing", detail: `open-design profile ${frame.plugin_version}` }], send };
  }

  private onSession(sessionId: string, resumed: boolean): Step {
    if (this.phase === "in_session") {
      return sessionId === this.sessionId
        ? this.fail(Code.PROTOCOL_ERROR, "a second session frame")
        : this.fail(Code.SESSION_MISMATCH, `session changed from ${this.sessionId} to ${sessionId}`);
    }
    const wanted = this.plan.resumeSessionId;
    if (wanted && (sessionId !== wanted || !resumed)) {
      return this.fail(Code.RESUME_MISMATCH, `asked to resume ${wanted}, profile answered ${sessionId} (resumed: ${resumed})`);
    }
    if (!wanted && resumed) return this.fail(Code.PROTOCOL_ERROR, `profile claims to resume ${sessionId} on a new run`);
    this.phase = "in_session";
    this.sessionId = sessionId;
    return { events: [{ type: "status", label: "working", sessionId }], send: [] };
  }

  private onResult(frame: Extract<ProfileFrame, { type: "result" }>): Step {
    if (frame.status === "failed" && frame.resume_rejected) {
      const message = frame.error?.message ?? "the profile could not resume the session";
      return this.fail(Code.RESUME_REJECTED, message);
    }
    if (this.sessionId !== undefined && frame.session_id !== this.sessionId) {
      return this.fail(Code.SESSION_MISMATCH, `result for session ${frame.session_id}, run is on ${this.sessionId}`);
    }
    if (frame.status === "failed") {
      const error = frame.error as ProtocolFailure;
      const step = this.fail(profileCode(error.code), error.message);
      if (step.done && this.sessionId !== undefined) step.done.sessionId = this.sessionId;
      return step;
    }
    if (this.sessionId === undefined) return this.fail(Code.PROTOCOL_ERROR, `${frame.status} result without a session`);
    if (frame.status === "cancelled" && !this.cancelRequested) return this.fail(Code.PROTOCOL_ERROR, "run cancelled without a cancel request");
    return this.finish(this.closeThinking(), { status: frame.status, sessionId: this.sessionId });
  }

  private contentEvents(frame: ProfileFrame): AgentEvent[] {
    if (frame.type === "thinking") {
      const events: AgentEvent[] = this.thinkingOpen ? [] : [{ type: "thinking_start" }];
      this.thinkingOpen = true;
      events.push({ type: "thinking_delta", delta: frame.content });
      return events;
    }
    const events = frame.type === "usage" ? [] : this.closeThinking();
    switch (frame.type) {
      case "text":
        events.push({ type: "text_delta", delta: frame.content });
        break;
      case "tool_call":
        events.push(toolUseEvent(frame.call_id, frame.name, parseArguments(frame.arguments), this.plan.cwd));
        break;
      case "tool_result":
        events.push({ type: "tool_result", toolUseId: frame.call_id, content: frame.output, isError: frame.is_error });
        break;
      case "usage": {
        const read = frame.cache_read_tokens;
        const written = frame.cache_write_tokens;
        events.push({
          type: "usage",
          provider: frame.provider,
          model: frame.model,
          usage: {
            input_tokens: frame.input_tokens,
            output_tokens: frame.output_tokens,
            ...(read === undefined ? {} : { cached_read_tokens: read }),
            ...(written === undefined ? {} : { cached_write_tokens: written }),
            total_tokens: frame.input_tokens + frame.output_tokens,
          },
        });
        break;
      }
    }
    return events;
  }

  private closeThinking(): AgentEvent[] {
    if (!this.thinkingOpen) return [];
    this.thinkingOpen = false;
    return [{ type: "thinking_end" }];
  }

  private finish(events: AgentEvent[], result: ProtocolResult): Step {
    this.phase = "done";
    if (result.sessionId === undefined) delete result.sessionId;
    return { events, send: [], done: result };
  }
}

const empty = (): Step => ({ events: [], send: [] });

/** `provider/model` → `{provider, id}`; null for "harness default"; `invalid` otherwise. */
export function toModelRef(model: string | null): { provider: string; id: string } | null | "invalid" {
  if (model === null) return null;
  const slash = model.indexOf("/");
  if (slash <= 0 || slash === model.length - 1) return "invalid";
  return { provider: model.slice(0, slash), id: model.slice(slash + 1) };
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { raw: text };
  }
}
