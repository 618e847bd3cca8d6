/**
 * The codex app-server transport (JSON-RPC without the `jsonrpc` field): initialize + initialized, thread/start or
 * thread/resume (unarchiving an archived thread once), turn/start, item notifications mapped until turn/completed,
 * then stdin end (the server exits on EOF). Approvals are accepted (or, in an ask / read-only run, asked of the run's
 * approvals: approvals.ts); every other server request gets -32601.
 * Cancel sends turn/interrupt.
 */
import type { AgentEvent } from "../../../contracts/events.ts";
import { VERSION } from "../../../version.ts";
import { isRecord } from "../../streams/tool-kind.ts";
import { EventQueue } from "../event-queue.ts";
import { failureEvent, PROTOCOL_FAILURE_CODES as CODES, ProtocolFailureError } from "../failures.ts";
import { JsonRpcConnection } from "../jsonrpc/connection.ts";
import { ConnectionClosedError, JsonRpcRequestError, RequestHandlerError } from "../jsonrpc/errors.ts";
import type { ProtocolFailure, ProtocolResult, ProtocolSession, StartTransport, TransportIO, TransportOptions } from "../types.ts";
import { explicitModel } from "../types.ts";
import type { InitializeParams } from "./generated/InitializeParams";
import type { ThreadStartParams } from "./generated/v2/ThreadStartParams";
import type { TurnStartParams } from "./generated/v2/TurnStartParams";
import type { UserInput } from "./generated/v2/UserInput";
import { CodexItemMapper } from "./items.ts";
import { supportsPatchStreaming } from "./version.ts";
import { codexApprovalQuestion, codexApprovalResponse, isApprovalMethod, threadPolicy } from "./approvals.ts";

/** The feature override that turns on `item/fileChange/patchUpdated`. */
export const PATCH_STREAMING_FEATURE = "features.apply_patch_streaming_events";

/** Server→client requests the headless policy approves. */
const APPROVALS: Record<string, unknown> = {
  "item/commandExecution/requestApproval": { decision: "accept" },
  "item/fileChange/requestApproval": { decision: "accept" },
  applyPatchApproval: { decision: "approved" },
  execCommandApproval: { decision: "approved" },
};

/** Starts the codex app-server protocol on a spawned `codex app-server` process. */
export const startCodexAppServerTransport: StartTransport = (io, options) => new CodexRun(io, options).session();

type TurnOutcome = { status: string; error: ProtocolFailure | null };

class CodexRun {
  private readonly events = new EventQueue<AgentEvent>();
  private readonly mapper: CodexItemMapper;
  private readonly connection: JsonRpcConnection;
  private threadId: string | null = null;
  private turnId: string | null = null;
  private cancelled = false;
  private completeTurn: ((outcome: TurnOutcome) => void) | null = null;

  constructor(
    io: TransportIO,
    private readonly options: TransportOptions,
  ) {
    this.mapper = new CodexItemMapper(options.cwd);
    this.connection = new JsonRpcConnection(io, {
      jsonrpcField: false,
      onMalformed: (line, reason) => {
        options.log?.(`codex app-server: malformed frame (${reason})`);
        this.events.push({ type: "raw", line: line.slice(0, 4000) });
      },
      onNotification: (method, params) => this.onNotification(method, params),
      onRequest: (method, params) => {
        const { askApproval } = options;
        if (askApproval && isApprovalMethod(method)) {
          return askApproval(codexApprovalQuestion(method, params, options.cwd, (itemId) => this.mapper.filesOf(itemId))).then((answer) => codexApprovalResponse(method, answer));
        }
        const answer = APPROVALS[method];
        if (answer === undefined) throw RequestHandlerError.methodNotFound(method);
        return answer;
      },
      log: options.log,
    });
  }

  session(): ProtocolSession {
    return { events: this.events, cancel: () => this.cancel(), result: this.run() };
  }

  async cancel(): Promise<void> {
    if (this.cancelled) return;
    this.cancelled = true;
    if (this.threadId && this.turnId) {
      await this.connection.request("turn/interrupt", { threadId: this.threadId, turnId: this.turnId }).catch(() => this.connection.end());
    } else this.connection.end();
  }

  private onNotification(method: string, params: unknown): void {
    // A spawned sub-agent's turn ends inside the main turn: only the main thread's completion ends it.
    if (method === "turn/completed" && !this.mapper.isSubAgentThread(params)) {
      const turn = isRecord(params) && isRecord(params.turn) ? params.turn : {};
      const status = typeof turn.status === "string" ? turn.status : "completed";
      let error: ProtocolFailure | null = null;
      if (status === "failed") {
        const turnError = isRecord(turn.error) && typeof turn.error.message === "string" ? turn.error.message : null;
        error = this.mapper.lastError ?? { code: CODES.executionFailed, message: turnError ?? "codex turn failed" };
      }
      this.events.push(...this.mapper.finish(status, status !== "completed"));
      this.completeTurn?.({ status, error });
      return;
    }
    this.events.push(...this.mapper.map(method, params));
  }

  private async run(): Promise<ProtocolResult> {
    let result: ProtocolResult;
    try {
      const outcome = await this.drive();
      const sessionPart = this.threadId ? { sessionId: this.threadId } : {};
      if (outcome.status === "interrupted" || (this.cancelled && outcome.status !== "completed")) result = { status: "cancelled", ...sessionPart };
      else if (outcome.error) {
        this.events.push(failureEvent(outcome.error));
        result = { status: "failed", error: outcome.error, ...sessionPart };
      } else result = { status: "completed", ...sessionPart };
    } catch (error) {
      const sessionPart = this.threadId ? { sessionId: this.threadId } : {};
      if (this.cancelled) {
        this.events.push(...this.mapper.finish("interrupted", true));
        result = { status: "cancelled", ...sessionPart };
      } else {
        const failure = toFailure(error);
        this.events.push(...this.mapper.finish("failed", true), failureEvent(failure));
        result = { status: "failed", error: failure, ...sessionPart };
      }
    }
    this.connection.end();
    this.events.close();
    return result;
  }

  private async drive(): Promise<TurnOutcome> {
    const { options } = this;
    this.events.push({ type: "status", label: "initializing" });
    const init: InitializeParams = { clientInfo: { name: "open-design", title: "Open Design", version: VERSION }, capabilities: null };
    const initResult = await this.connection.request("initialize", init);
    await this.connection.notify("initialized");
    const userAgent = isRecord(initResult) ? initResult.userAgent : undefined;
    const model = explicitModel(options.model);
    const threadParams: ThreadStartParams = {
      cwd: options.cwd,
      approvalPolicy: "never",
      sandbox: sandboxMode(options.env.OD_CODEX_SANDBOX),
      ...threadPolicy(options),
      ...(model ? { model } : {}),
      ...(supportsPatchStreaming(userAgent) ? { config: { [PATCH_STREAMING_FEATURE]: true } } : {}),
    };
    const thread = options.resumeSessionId
      ? await this.resumeThread(options.resumeSessionId, threadParams)
      : await this.connection.request("thread/start", threadParams);
    const threadId = isRecord(thread) && isRecord(thread.thread) && typeof thread.thread.id === "string" ? thread.thread.id : null;
    if (threadId === null) throw new ProtocolFailureError({ code: CODES.protocolError, message: "thread/start returned no thread id" });
    this.threadId = threadId;
    this.events.push({ type: "status", label: "session", sessionId: threadId });
    const input: UserInput[] = [{ type: "text", text: options.prompt, text_elements: [] }, ...options.imagePaths.map((path): UserInput => ({ type: "localImage", path }))];
    const turnParams: TurnStartParams = {
      threadId,
      input,
      summary: "detailed",
      ...(model ? { model } : {}),
      ...(options.reasoning ? { effort: options.reasoning as TurnStartParams["effort"] } : {}),
    };
    const completed = new Promise<TurnOutcome>((resolve) => {
      this.completeTurn = resolve;
    });
    const closed = this.connection.closed.then((): never => {
      throw new ConnectionClosedError("turn/start", "codex app-server exited before turn/completed");
    });
    this.mapper.turnSent();
    const turn = await this.connection.request("turn/start", turnParams);
    if (isRecord(turn) && isRecord(turn.turn) && typeof turn.turn.id === "string") this.turnId = turn.turn.id;
    if (this.cancelled && this.turnId) void this.cancelAfterStart();
    return Promise.race([completed, closed]);
  }

  private async cancelAfterStart(): Promise<void> {
    await this.connection.request("turn/interrupt", { threadId: this.threadId, turnId: this.turnId }).catch(() => this.connection.end());
  }

  /** thread/resume; an archived thread is unarchived once and resumed again. */
  private async resumeThread(threadId: string, params: ThreadStartParams): Promise<unknown> {
    const resume = () => this.connection.request("thread/resume", { ...params, threadId });
    try {
      return await resume();
    } catch (error) {
      if (!(error instanceof JsonRpcRequestError)) throw error;
      if (!/archived/i.test(error.message)) {
        throw new ProtocolFailureError({ code: CODES.resumeFailed, message: `thread/resume failed: ${error.message}`, retryable: true });
      }
      await this.connection.request("thread/unarchive", { threadId });
      return resume();
    }
  }
}

function sandboxMode(value: string | undefined): ThreadStartParams["sandbox"] {
  return value === "danger-full-access" || value === "read-only" ? value : "workspace-write";
}

function toFailure(error: unknown): ProtocolFailure {
  if (error instanceof ProtocolFailureError) return error.failure;
  if (error instanceof JsonRpcRequestError) return { code: CODES.executionFailed, message: `${error.method}: ${error.message}` };
  if (error instanceof ConnectionClosedError) return { code: CODES.closed, message: "codex app-server exited before the turn completed", retryable: true };
  return { code: CODES.executionFailed, message: error instanceof Error ? error.message : String(error) };
}
