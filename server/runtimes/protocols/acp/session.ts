/**
 * The ACP transport (streamFormat `acp-json-rpc`): initialize → session/new or session/load → model selection →
 * session/prompt → session/update mapping → clean shutdown (stdin end). Answers permission requests headlessly,
 * cancels with session/cancel, guards every stage with a watchdog, and runs the AMR compaction continuation.
 */
import type { AgentEvent } from "../../../contracts/events.ts";
import { askingModeOf } from "./asking-mode.ts";
import { isRecord } from "../../streams/tool-kind.ts";
import { EventQueue } from "../event-queue.ts";
import {
  failureEvent,
  PROTOCOL_FAILURE_CODES as CODES,
  ProtocolFailureError,
  retryableFromData,
  withTimeout,
} from "../failures.ts";
import { JsonRpcConnection } from "../jsonrpc/connection.ts";
import { ConnectionClosedError, JsonRpcRequestError, RequestHandlerError } from "../jsonrpc/errors.ts";
import { StageWatchdog, timeoutFromEnv } from "../jsonrpc/watchdog.ts";
import type { ProtocolFailure, ProtocolResult, ProtocolSession, StartTransport, TransportIO, TransportOptions } from "../types.ts";
import { explicitModel } from "../types.ts";
import {
  AMR_REFUSAL_CODES,
  continuationRefusal,
  readContinuationOffer,
  SESSION_CONTINUE_METHOD,
  supportsAmrContinuation,
  type ContinuationCursor,
} from "./amr-continuation.ts";
import { modelConfigOption } from "./models.ts";
import { acpMcpServers, initializeParams, promptBlocks } from "./params.ts";
import { choosePermissionOption, permissionToolCallId } from "./permission.ts";
import { PermissionRefusals } from "./permission-refusals.ts";
import { acpApprovalQuestion, acpOptionFor } from "./ask-permission.ts";
import { UnaskedActions } from "./unasked-actions.ts";
import { acpUsage } from "./usage.ts";
import { AcpUpdateMapper } from "./updates.ts";

/** Default per-stage silence budget (`OD_ACP_STAGE_TIMEOUT_MS`). */
export const ACP_STAGE_TIMEOUT_MS = 10 * 60 * 1000;
/** How long the previous process may take to close its output before a continuation. */
const QUIESCENCE_TIMEOUT_MS = 10_000;

/** Starts the ACP protocol on a spawned agent's pipes. */
export const startAcpTransport: StartTransport = (io, options) => new AcpRun(io, options).session();

class AcpRun {
  private readonly events = new EventQueue<AgentEvent>();
  private readonly mapper: AcpUpdateMapper;
  private readonly watchdog: StageWatchdog;
  private readonly refusals = new PermissionRefusals();
  /** Set in ask and read-only runs: writes and commands the agent made without asking. */
  private readonly unasked: UnaskedActions | undefined;
  private connection!: JsonRpcConnection;
  private sessionId: string | null = null;
  private durableSessionId: string | null = null;
  private mcpServers: Record<string, unknown>[] = [];
  private cancelled = false;
  private muted = false;
  private continued = false;
  private abortWith: ((failure: ProtocolFailure) => void) | null = null;
  private readonly aborted: Promise<never>;
  private turnEnded: (() => void) | null = null;

  constructor(
    io: TransportIO,
    private readonly options: TransportOptions,
  ) {
    this.mapper = new AcpUpdateMapper(options.cwd);
    this.unasked = options.askApproval ? new UnaskedActions() : undefined;
    this.watchdog = new StageWatchdog(timeoutFromEnv(options.env.OD_ACP_STAGE_TIMEOUT_MS, ACP_STAGE_TIMEOUT_MS), (stage) =>
      this.abort({ code: CODES.stageTimeout, message: `ACP agent was silent too long during ${stage}`, retryable: true }),
    );
    this.aborted = new Promise<never>((_, reject) => {
      this.abortWith = (failure) => reject(new ProtocolFailureError(failure));
    });
    this.aborted.catch(() => undefined);
    this.connect(io);
  }

  session(): ProtocolSession {
    return { events: this.events, cancel: () => this.cancel(), result: this.run() };
  }

  private connect(io: TransportIO): void {
    this.connection = new JsonRpcConnection(io, {
      jsonrpcField: true,
      onLine: () => this.watchdog.touch(),
      onMalformed: (line, reason) => {
        this.options.log?.(`acp: malformed frame (${reason})`);
        this.events.push({ type: "raw", line: line.slice(0, 4000) });
      },
      onNotification: (method, params) => this.onNotification(method, params),
      onRequest: (method, params) => this.onRequest(method, params),
      log: this.options.log,
    });
  }

  private abort(failure: ProtocolFailure): void {
    this.abortWith?.(failure);
    this.abortWith = null;
  }

  private onNotification(method: string, params: unknown): void {
    if (method !== "session/update") {
      this.options.log?.(`acp: notification ${method} ignored`);
      return;
    }
    if (this.muted) return; // history replayed by session/load
    const mapped = this.mapper.map(params);
    this.events.push(...mapped.events, ...this.refusals.inspect(mapped.events), ...(this.unasked?.inspect(mapped.events) ?? []));
    if (mapped.turnEnded && this.options.def.acpTurnEndCompletesPrompt) this.turnEnded?.();
  }

  private onRequest(method: string, params: unknown): unknown {
    if (method !== "session/request_permission") throw RequestHandlerError.methodNotFound(method);
    if (this.cancelled) return { outcome: { outcome: "cancelled" } };
    if (this.options.askApproval) return this.askPerson(this.options.askApproval, params);
    const choice = choosePermissionOption(params, this.refusals.privilegedRefused);
    if (choice === null) {
      this.abort({ code: CODES.permissionUnanswerable, message: "the agent asked for a permission with no allowing option", retryable: false });
      return { outcome: { outcome: "cancelled" } };
    }
    this.refusals.answered(permissionToolCallId(params), choice);
    return { outcome: { outcome: "selected", optionId: choice.optionId } };
  }

  /** An `ask` or `read-only` run: the run's approvals answer; a deny is the offered reject (else a cancelled outcome). */
  private async askPerson(ask: NonNullable<TransportOptions["askApproval"]>, params: unknown): Promise<unknown> {
    // The agent is silent while a person decides: that is no stall of its stage.
    this.watchdog.pause();
    this.unasked?.asked(permissionToolCallId(params));
    const answer = await ask(acpApprovalQuestion(params, this.options.cwd)).finally(() => this.watchdog.resume());
    if (this.cancelled) return { outcome: { outcome: "cancelled" } };
    const choice = acpOptionFor(params, answer, this.refusals.privilegedRefused);
    if (!choice) return { outcome: { outcome: "cancelled" } };
    if (answer.decision !== "deny") this.refusals.answered(permissionToolCallId(params), choice);
    return { outcome: { outcome: "selected", optionId: choice.optionId } };
  }

  /** Runs one request as a watched stage; fails early on abort (watchdog, permission). */
  private stage(name: string, request: Promise<unknown>): Promise<unknown> {
    this.watchdog.start(name);
    return Promise.race([request, this.aborted]);
  }

  async cancel(): Promise<void> {
    if (this.cancelled) return;
    this.cancelled = true;
    if (this.sessionId !== null && !this.connection.isClosed) await this.connection.notify("session/cancel", { sessionId: this.sessionId });
    else this.connection.end();
  }

  private async run(): Promise<ProtocolResult> {
    let result: ProtocolResult;
    try {
      const promptResult = await this.drive();
      this.events.push(...this.mapper.finish(), ...this.mapper.tools.flush(null));
      const usage = acpUsage(promptResult);
      if (usage) this.events.push(usage);
      const stopReason = isRecord(promptResult) ? promptResult.stopReason : undefined;
      const status = this.cancelled || stopReason === "cancelled" ? "cancelled" : "completed";
      if (status === "completed") this.failOnUnresolvedRefusals();
      if (status === "completed") this.failOnUnaskedActions();
      result = { status, ...(this.sessionId ? { sessionId: this.sessionId } : {}) };
    } catch (error) {
      result = this.failureResult(error);
    }
    this.watchdog.stop();
    this.connection.end();
    this.events.close();
    return result;
  }

  /** An ask or read-only turn in which the agent acted without asking is not a success (see unasked-actions.ts). */
  private failOnUnaskedActions(): void {
    const acted = this.unasked?.unasked() ?? [];
    if (acted.length === 0) return;
    const message = `the agent acted without asking, so it cannot run in this permission mode: ${acted.join("; ")}`;
    throw new ProtocolFailureError({ code: CODES.permissionModeNotHonoured, message, retryable: false });
  }

  /** A turn that ended while a refused tool call never ran is not a success (see permission-refusals.ts). */
  private failOnUnresolvedRefusals(): void {
    const unresolved = this.refusals.unresolved();
    if (unresolved.length === 0) return;
    const message = `the agent refused the permission od gave and did not run: ${unresolved.join("; ")}`;
    throw new ProtocolFailureError({ code: CODES.permissionRefused, message, retryable: false });
  }

  private failureResult(error: unknown): ProtocolResult {
    const sessionPart = this.sessionId ? { sessionId: this.sessionId } : {};
    if (this.cancelled && !(error instanceof ProtocolFailureError)) {
      this.events.push(...this.mapper.finish(), ...this.mapper.tools.flush("cancelled"));
      return { status: "cancelled", ...sessionPart };
    }
    const failure = toFailure(error);
    this.events.push(...this.mapper.finish(), ...this.mapper.tools.flush(failure.message), failureEvent(failure));
    return { status: "failed", error: failure, ...sessionPart };
  }

  /** The whole protocol up to the prompt's result. */
  private async drive(): Promise<unknown> {
    const { options } = this;
    this.events.push({ type: "status", label: "initializing" });
    const init = await this.stage("initialize", this.connection.request("initialize", initializeParams()));
    const agent = agentFacts(init);
    const mcp = acpMcpServers(options.mcpServers, options.def, agent.version);
    this.mcpServers = mcp.servers;
    if (mcp.withheld.length > 0) {
      this.events.push({ type: "status", label: "warning", detail: `MCP servers not forwarded to this agent version: ${mcp.withheld.join(", ")}` });
    }
    const sessionResult = await this.openSession(agent.loadSession);
    await this.selectModel(sessionResult);
    if (options.askApproval) await this.selectAskingMode(sessionResult);
    this.mapper.promptSent();
    this.events.push({ type: "status", label: "waiting_for_first_output" });
    const params = { sessionId: this.sessionId, prompt: promptBlocks(options.prompt, options.imagePaths, options.def.acpImagePathFormat) };
    try {
      return await this.promptStage("session/prompt", params);
    } catch (error) {
      if (!(error instanceof JsonRpcRequestError) || this.cancelled) throw error;
      const offer = readContinuationOffer(error.data);
      if (offer.kind === "none") throw error;
      const refusal = continuationRefusal(
        {
          offer,
          supported: supportsAmrContinuation(init),
          alreadyContinued: this.continued,
          canRespawn: options.respawn !== undefined,
          sessionDurableId: this.durableSessionId,
          openToolIds: this.mapper.tools.openIds(),
        },
        error.message,
      );
      if (refusal || offer.kind !== "cursor") throw new ProtocolFailureError(refusal ?? { code: AMR_REFUSAL_CODES.invalidCursor, message: error.message });
      return this.continueAfterCompaction(offer.durableSessionId, offer.cursor);
    }
  }

  private async openSession(loadSession: boolean): Promise<unknown> {
    const { options } = this;
    const resumeId = options.resumeSessionId ?? null;
    const wantsLoad = resumeId !== null && options.def.resumesSessionViaAcpLoad === true;
    if (wantsLoad && loadSession) {
      const loaded = await this.loadSession(resumeId).catch((error: unknown) => {
        if (error instanceof JsonRpcRequestError) {
          throw new ProtocolFailureError({ code: CODES.resumeFailed, message: `session/load failed: ${error.message}`, retryable: true });
        }
        throw error;
      });
      this.adoptSession(loaded, resumeId);
      return loaded;
    }
    if (wantsLoad) this.events.push({ type: "status", label: "warning", detail: "agent cannot load sessions; starting a new one" });
    const created = await this.stage("session/new", this.connection.request("session/new", { cwd: options.cwd, mcpServers: this.mcpServers }));
    this.adoptSession(created, null);
    return created;
  }

  private async loadSession(sessionId: string): Promise<unknown> {
    this.muted = true;
    try {
      return await this.stage("session/load", this.connection.request("session/load", { sessionId, cwd: this.options.cwd, mcpServers: this.mcpServers }));
    } finally {
      this.muted = false;
    }
  }

  private adoptSession(result: unknown, fallbackId: string | null): void {
    const id = isRecord(result) && typeof result.sessionId === "string" ? result.sessionId : fallbackId;
    if (id === null) throw new ProtocolFailureError({ code: CODES.protocolError, message: "session/new returned no sessionId" });
    this.sessionId = id;
    if (isRecord(result) && typeof result.openCodeSessionId === "string") this.durableSessionId = result.openCodeSessionId;
    this.events.push({ type: "status", label: "session", sessionId: id });
  }

  /** An ask or read-only run in a session mode that acts without asking: switch to one that asks (asking-mode.ts). */
  private async selectAskingMode(sessionResult: unknown): Promise<void> {
    const modeId = askingModeOf(sessionResult);
    if (modeId === null) return;
    try {
      await this.stage("mode", this.connection.request("session/set_mode", { sessionId: this.sessionId, modeId }));
      this.events.push({ type: "status", label: "mode", detail: modeId });
    } catch (error) {
      if (!(error instanceof JsonRpcRequestError)) throw error;
      // Its actions without asking still fail the run (unasked-actions.ts): never a silent bypass.
      this.events.push({ type: "status", label: "warning", detail: `session mode ${modeId} could not be selected (${error.message})` });
    }
  }

  /** set_config_option when a model option exists, else set_model; failures fall back to the default model. */
  private async selectModel(sessionResult: unknown): Promise<void> {
    const model = explicitModel(this.options.model);
    if (model === null) return;
    const option = modelConfigOption(sessionResult);
    const request =
      option && typeof option.id === "string"
        ? this.connection.request("session/set_config_option", { sessionId: this.sessionId, configId: option.id, value: model })
        : this.connection.request("session/set_model", { sessionId: this.sessionId, modelId: model });
    try {
      await this.stage("model", request);
      this.events.push({ type: "status", label: "model", model });
    } catch (error) {
      if (!(error instanceof JsonRpcRequestError)) throw error;
      this.events.push({ type: "status", label: "warning", detail: `model ${model} could not be selected (${error.message}); using the agent's default` });
    }
  }

  /** The prompt request, finished early by a `turn_end` update when the def says so. */
  private promptStage(method: string, params: unknown): Promise<unknown> {
    const turnEnd = new Promise<unknown>((resolve) => {
      this.turnEnded = () => resolve({ stopReason: "end_turn" });
    });
    return this.stage(method, Promise.race([this.connection.request(method, params), turnEnd]));
  }

  /** The AMR continuation: quiesce the old process, load the session anew, `_session/continue` with the cursor. */
  private async continueAfterCompaction(durableSessionId: string, cursor: ContinuationCursor): Promise<unknown> {
    const refuse = (code: string, message: string): never => {
      throw new ProtocolFailureError({ code, message, retryable: false });
    };
    this.continued = true;
    const respawn = this.options.respawn;
    if (!respawn) return refuse(AMR_REFUSAL_CODES.noRespawn, "no way to start a new agent process");
    this.events.push({ type: "status", label: "compacting", detail: "continuing the native session in a new process" });
    this.connection.end();
    await withTimeout(this.connection.closed, QUIESCENCE_TIMEOUT_MS, () => ({
      code: AMR_REFUSAL_CODES.notQuiescent,
      message: "the previous agent process did not stop",
      retryable: false,
    }));
    this.connect(await respawn());
    const init = await this.stage("initialize", this.connection.request("initialize", initializeParams()));
    if (!supportsAmrContinuation(init)) return refuse(AMR_REFUSAL_CODES.unsupported, "the new agent process does not advertise native session continue v1");
    const loaded = await this.loadSession(this.sessionId ?? "").catch((error: unknown) => {
      if (error instanceof JsonRpcRequestError) return refuse(AMR_REFUSAL_CODES.loadFailed, `session/load failed: ${error.message}`);
      throw error;
    });
    const loadedDurable = isRecord(loaded) && typeof loaded.openCodeSessionId === "string" ? loaded.openCodeSessionId : null;
    if (loadedDurable !== durableSessionId) {
      return refuse(AMR_REFUSAL_CODES.sessionMismatch, "the loaded session is not the durable session of the cursor");
    }
    try {
      return await this.promptStage(SESSION_CONTINUE_METHOD, { sessionId: this.sessionId, continuation: cursor });
    } catch (error) {
      if (error instanceof JsonRpcRequestError && readContinuationOffer(error.data).kind !== "none") {
        return refuse(AMR_REFUSAL_CODES.limit, `${error.message} (continuation refused: a continuation already ran in this run)`);
      }
      throw error;
    }
  }
}

function agentFacts(init: unknown): { version: string | null; loadSession: boolean } {
  const info = isRecord(init) && isRecord(init.agentInfo) ? init.agentInfo : null;
  const caps = isRecord(init) && isRecord(init.agentCapabilities) ? init.agentCapabilities : null;
  return { version: info && typeof info.version === "string" ? info.version : null, loadSession: caps?.loadSession === true };
}

function toFailure(error: unknown): ProtocolFailure {
  if (error instanceof ProtocolFailureError) return error.failure;
  if (error instanceof JsonRpcRequestError) {
    const retryable = retryableFromData(error.data);
    return { code: CODES.executionFailed, message: error.message, ...(retryable !== undefined ? { retryable } : {}) };
  }
  if (error instanceof ConnectionClosedError) return { code: CODES.closed, message: "the agent exited before the prompt completed", retryable: true };
  return { code: CODES.executionFailed, message: error instanceof Error ? error.message : String(error) };
}
