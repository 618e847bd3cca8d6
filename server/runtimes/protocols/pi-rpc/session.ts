/**
 * The pi rpc transport (`pi --mode rpc`): optional `switch_session {sessionPath}` for resume, one `prompt` command
 * (with base64 images), events mapped until a final `agent_end`, then stdin closed (the run service SIGTERMs after
 * its grace). Extension UI requests are auto-resolved; cancel sends `abort`. An error `agent_end` is final only
 * when no `auto_retry_start` follows within `PI_AUTO_RETRY_GRACE_MS`.
 */
import { isAbsolute, join } from "node:path";
import type { AgentEvent } from "../../../contracts/events.ts";
import { isRecord } from "../../streams/tool-kind.ts";
import { EventQueue } from "../event-queue.ts";
import { failureEvent, PROTOCOL_FAILURE_CODES as CODES } from "../failures.ts";
import { timeoutFromEnv } from "../jsonrpc/watchdog.ts";
import { parseJsonLine, readLines } from "../ndjson.ts";
import type { ProtocolFailure, ProtocolResult, ProtocolSession, StartTransport, TransportIO, TransportOptions } from "../types.ts";
import { PiEventMapper, retryExhaustedMessage } from "./events.ts";
import { loadPiImages } from "./images.ts";
import { changedSessionFile, snapshotSessionDir, type SessionFileStat } from "./session-file.ts";
import { questionForTool } from "../../approval-channel.ts";
import { piApprovalReply, piApprovalRequest } from "../../defs/pi-permissions.ts";

/** Default wait for an `auto_retry_start` after an error `agent_end`. */
export const PI_AUTO_RETRY_GRACE_MS = 1000;

/** Extension UI methods that expect no answer. */
const FIRE_AND_FORGET = new Set(["notify", "setStatus", "setWidget", "setTitle", "set_editor_text"]);

/** Starts the pi rpc protocol on a spawned `pi --mode rpc` process. */
export const startPiRpcTransport: StartTransport = (io, options) => new PiRun(io, options).session();

type Outcome = { status: "completed" | "cancelled" } | { status: "failed"; failure: ProtocolFailure };

class PiRun {
  private readonly events = new EventQueue<AgentEvent>();
  private readonly mapper: PiEventMapper;
  private writeChain: Promise<void> = Promise.resolve();
  private readonly responses = new Map<string, (record: Record<string, unknown>) => void>();
  private finish: ((outcome: Outcome) => void) | null = null;
  private readonly finished: Promise<Outcome>;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private aborted = false;
  private readonly sessionDir: string;

  constructor(
    private readonly io: TransportIO,
    private readonly options: TransportOptions,
  ) {
    this.mapper = new PiEventMapper(options.cwd);
    this.finished = new Promise((resolve) => {
      this.finish = (outcome) => {
        this.finish = null;
        clearTimeout(this.retryTimer);
        resolve(outcome);
      };
    });
    const dir = options.def.piRpcSessionDir ?? join(".pi", "sessions");
    this.sessionDir = isAbsolute(dir) ? dir : join(options.cwd, dir);
  }

  session(): ProtocolSession {
    return { events: this.events, cancel: () => this.cancel(), result: this.run() };
  }

  async cancel(): Promise<void> {
    if (this.aborted) return;
    this.aborted = true;
    await this.send({ type: "abort" }).catch(() => this.io.stdin.end());
  }

  private send(command: Record<string, unknown>): Promise<void> {
    const write = this.writeChain.then(() => this.io.stdin.write(`${JSON.stringify(command)}\n`));
    this.writeChain = write.catch(() => undefined);
    return write;
  }

  /** Sends a command with an id and waits for its `response` (or the end of the run). */
  private command(id: string, command: Record<string, unknown>): Promise<Record<string, unknown> | null> {
    const reply = new Promise<Record<string, unknown> | null>((resolve) => {
      this.responses.set(id, resolve);
      void this.finished.then(() => resolve(null));
    });
    this.send({ id, ...command }).catch(() => this.responses.get(id)?.({ success: false, error: "stdin closed" }));
    return reply;
  }

  private async run(): Promise<ProtocolResult> {
    const before = await snapshotSessionDir(this.sessionDir, this.options.machine);
    void this.readLoop();
    const outcome = await Promise.race([this.drive(), this.finished]);
    this.finish?.(outcome);
    // pi stays alive after agent_end; closing stdin lets it exit (the run service SIGTERMs after its grace).
    this.io.stdin.end();
    return this.settle(outcome, before);
  }

  private async drive(): Promise<Outcome> {
    const { options } = this;
    this.events.push({ type: "status", label: "initializing" });
    if (options.resumeSessionId) {
      // `switch_session` loads the saved history; `new_session {parentSession}` would only record lineage (pi 0.73).
      const reply = await this.command("od-switch-session", { type: "switch_session", sessionPath: options.resumeSessionId });
      const cancelled = isRecord(reply?.data) && reply.data.cancelled === true;
      if (reply !== null && (reply.success !== true || cancelled)) {
        const why = typeof reply.error === "string" ? reply.error : cancelled ? "an extension cancelled the switch" : "refused";
        return { status: "failed", failure: { code: CODES.piParentSessionFailed, message: `pi could not continue session ${options.resumeSessionId}: ${why}`, retryable: true } };
      }
      if (reply === null) return this.finished;
    }
    // pi takes the images' bytes, which od reads here (on a remote run, from this machine's copies).
    const { images, skipped } = await loadPiImages(options.localImagePaths ?? options.imagePaths);
    for (const reason of skipped) this.events.push({ type: "status", label: "warning", detail: `image skipped: ${reason}` });
    const reply = await this.command("od-prompt", { type: "prompt", message: options.prompt, ...(images.length > 0 ? { images } : {}) });
    if (reply !== null && reply.success === false) {
      const why = typeof reply.error === "string" ? reply.error : "prompt refused";
      return { status: "failed", failure: { code: CODES.executionFailed, message: why } };
    }
    return this.finished;
  }

  private async readLoop(): Promise<void> {
    for await (const line of readLines(this.io.stdout, this.options.log)) {
      const parsed = parseJsonLine(line);
      if (!parsed.ok || !isRecord(parsed.value)) {
        this.events.push({ type: "raw", line: line.slice(0, 4000) });
        continue;
      }
      this.handle(parsed.value);
    }
    this.finish?.(
      this.aborted
        ? { status: "cancelled" }
        : { status: "failed", failure: { code: CODES.closed, message: "pi exited before the run finished", retryable: true } },
    );
  }

  private handle(record: Record<string, unknown>): void {
    if (record.type === "response" && typeof record.id === "string") {
      const resolve = this.responses.get(record.id);
      this.responses.delete(record.id);
      resolve?.(record);
      return;
    }
    if (record.type === "extension_ui_request") return this.answerUi(record);
    const mapped = this.mapper.map(record);
    this.events.push(...mapped.events);
    switch (mapped.signal) {
      case "auto_retry_start":
        clearTimeout(this.retryTimer);
        this.retryTimer = undefined;
        return;
      case "retry_exhausted":
        return this.finish?.({ status: "failed", failure: { code: CODES.executionFailed, message: retryExhaustedMessage(record, this.mapper.lastTurnError) } });
      case "agent_end":
        return this.onAgentEnd();
      default:
        return;
    }
  }

  private onAgentEnd(): void {
    if (this.aborted) return this.finish?.({ status: "cancelled" });
    const error = this.mapper.lastTurnError;
    if (error === null) return this.finish?.({ status: "completed" });
    // pi may still auto-retry this failure: its auto_retry_start follows the failed attempt's agent_end.
    const graceMs = timeoutFromEnv(this.options.env.PI_AUTO_RETRY_GRACE_MS, PI_AUTO_RETRY_GRACE_MS);
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.finish?.({ status: "failed", failure: { code: CODES.executionFailed, message: error } }), graceMs);
  }

  private answerUi(request: Record<string, unknown>): void {
    const method = typeof request.method === "string" ? request.method : "";
    if (FIRE_AND_FORGET.has(method)) return;
    const id = request.id;
    const call = method === "input" ? piApprovalRequest(request.title) : undefined;
    if (call) return void this.answerApproval(id, call);
    if (method === "confirm") void this.send({ type: "extension_ui_response", id, confirmed: true }).catch(() => undefined);
    else if (method === "select" && Array.isArray(request.options) && request.options.length > 0) {
      void this.send({ type: "extension_ui_response", id, value: request.options[0] }).catch(() => undefined);
    } else void this.send({ type: "extension_ui_response", id, cancelled: true }).catch(() => undefined);
  }

  /** od's own permission extension asks about a tool call: the run's approvals decide (allowed when none ask). */
  private async answerApproval(id: unknown, call: { toolName: string; input: unknown }): Promise<void> {
    const ask = this.options.askApproval;
    const answer = ask ? await ask(questionForTool(call.toolName, call.input, this.options.cwd)).catch(() => ({ decision: "deny" as const, message: undefined })) : { decision: "allow_once" as const };
    const value = piApprovalReply(answer.decision !== "deny", answer.decision === "deny" ? answer.message : undefined);
    await this.send({ type: "extension_ui_response", id, value }).catch(() => undefined);
  }

  private async settle(outcome: Outcome, before: SessionFileStat[]): Promise<ProtocolResult> {
    const changed = changedSessionFile(before, await snapshotSessionDir(this.sessionDir, this.options.machine));
    const sessionId = changed !== null ? join(this.sessionDir, changed) : (this.options.resumeSessionId ?? undefined);
    if (changed !== null) this.events.push({ type: "status", label: "session", sessionId: join(this.sessionDir, changed) });
    const sessionPart = sessionId ? { sessionId } : {};
    let result: ProtocolResult;
    if (outcome.status === "failed") {
      this.events.push(failureEvent(outcome.failure));
      result = { status: "failed", error: outcome.failure, ...sessionPart };
    } else result = { status: outcome.status, ...sessionPart };
    this.events.close();
    return result;
  }
}
