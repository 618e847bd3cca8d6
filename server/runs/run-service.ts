/**
 * The run service: turns a request into a run of one agent in one project folder, streams its events through a
 * replayable log, and always ends it — succeeded, failed or canceled — with nothing of it left running.
 * It is the one owner of every agent child process the daemon starts.
 */
import { transportFacts } from "./transport-facts.ts";
import type { AgentInfo } from "../contracts/agents.ts";
import type { Project } from "../contracts/projects.ts";
import type { CreateRunRequest, NewRunEvent, RunEvent, RunStatus, RunSummary } from "../contracts/runs.ts";
import { OdError } from "../errors.ts";
import { createRunInputs, type RunInputNote, type RunInputsProvider } from "../inputs/run-inputs.ts";
import { MachineDetections } from "../runtimes/machine-detections.ts";
import { awaitProbingAgent, detectedOn, type DetectedAgents } from "./detected-agents.ts";
import { endEvent, warningEvents } from "./end-event.ts";
import { eventsWithRunReason } from "./stored-reason.ts";
import { passDeadlineFromEnv } from "../runtimes/catalog.ts";
import type { RemoteContext } from "../machines/remote-exec.ts";
import { placeOf } from "../machines/machine-of.ts";
import type { Machine, MachinePlace } from "../machines/machine.ts";
import type { RunPlace } from "./run-place.ts";
import { runPlaceOf } from "./run-place-of.ts";
import { buildInvocation, readerFor, streamJsonUserLine, type Invocation } from "../runtimes/invocation.ts";
import { launchArgv, resolveAgentLaunch, type AgentLaunch } from "../runtimes/launch.ts";
import { checkPromptArgvBudget, checkWindowsCmdShimCommandLineBudget, checkWindowsDirectExeCommandLineBudget } from "../runtimes/prompt-budget.ts";
import { ArtifactSpool } from "../runtimes/streams/artifacts.ts";
import { resolveDefTransport, type EnvMap, type RuntimeAgentDef, type RuntimeModelOption } from "../runtimes/types.ts";
import { parseLoggedEvent, type LoggedEvent } from "../store/event-json.ts";
import { newId } from "../store/ids.ts";
import type { Store } from "../store/store.ts";
import { extractsArtifacts, runAttempt, type AttemptOutcome, type MidTurnInput } from "./attempt.ts";
import { RunEventLog, replayPersisted, replayPersistedBatches } from "./event-log.ts";
import { EventFolder } from "./fold.ts";
import { foldStoredRun } from "./recovery.ts";
import { storeFailureEnding } from "./store-failures.ts";
import { DISK_FULL_MESSAGE, DiskSpace, isDiskFull } from "../store/disk-space.ts";
import { RunHistory } from "./history.ts";
import { readOutputRange, RunOutputFile, type OutputRange } from "./output-file.ts";
import { UsageTally } from "./usage-tally.ts";
import { judgeAttempt, looksLikeStaleSession, type RunEnding } from "./outcome.ts";
import { composePrompt, type TranscriptTurn } from "./prompt.ts";
import { isSameProcessRunning, ownProcessIdentity } from "./process-identity.ts";
import { jitAfterEvents } from "../platform/jit-policy.ts";
import { collectGarbage } from "../platform/memory.ts";
import { loggedEventText, type TextMeter } from "./garbage-pacer.ts";
import { RemoteCleanups, type RemoteCleanupTimings } from "../machines/remote-cleanups.ts";
import { resolveRunTimeouts, type RunTimeouts } from "./timeouts.ts";
import { resolveRunPermissionMode } from "./permission-mode.ts";
import { RunApprovals, type AnswerResult } from "./approvals.ts";
import { DEFAULT_APPROVAL_TIMEOUT_MS } from "../contracts/approval-values.ts";
import type { ApprovalDecision, PermissionMode } from "../contracts/approvals.ts";

/** Characters of a run's answer kept in its message when the disk has no room for all of it. */
const ANSWER_TAIL_WHEN_FULL = 64_000;

/** A folded answer at least this large (characters) is written after a garbage collection (see `finish`). */
export const LARGE_FOLD_CHARS = 1_000_000;

/**
 * Once this much event text (characters of JSON, all runs of the process together) has been logged since the last
 * such collection, a run's answer is written after one too, however small the answer: the heap then holds the
 * streams' promoted garbage, about as much as JavaScriptCore lets it grow before it collects by itself (see `finish`).
 */
export const LOGGED_CHARS_BEFORE_ANSWER_GC = 4_000_000;

/** What the run service needs to know about installed agents (the AgentCatalog provides it). */
export interface AgentDirectory {
  list(): Promise<AgentInfo[]>;
  capabilities(agentId: string): Record<string, boolean>;
  liveModels(agentId: string): RuntimeModelOption[] | undefined;
  /** One agent's real result once its running probes finish (the catalog's `probed`); absent: `list` is final. */
  probed?(agentId: string): Promise<AgentInfo | undefined>;
}

export type RunServiceDeps = {
  store: Store;
  defs: readonly RuntimeAgentDef[];
  agents: AgentDirectory;
  /** The daemon's environment (children get a filtered copy). */
  env: EnvMap;
  platform?: NodeJS.Platform;
  timeouts?: Partial<RunTimeouts>;
  /** Resolve the executable of a def; defaults to PATH resolution over `env`. */
  resolveLaunch?: (def: RuntimeAgentDef) => AgentLaunch | undefined;
  /** Skills, MCP servers and images for each run; default: no skill library, no user MCP list. */
  inputs?: RunInputsProvider;
  /**
   * Where the whole answer of a run too large for its stored message is kept (`GET /api/runs/:id/output`).
   * Absent: such an answer is kept only cut (its beginning and end).
   */
  outputDir?: string;
  /** How projects on other machines and in containers are reached; default: ssh/docker with `env`. */
  remote?: RemoteContext;
  /**
   * What detection found on other machines and in containers (the catalog's, which `GET /api/agents?location=`
   * fills); default: probes of this service's own, with `defs`, `env` and the user's per-agent env.
   */
  locations?: MachineDetections;
  /** A full garbage collection (the platform's; a test's counter). */
  collectGarbage?: () => void;
  /** The event text logged since the last collection before an answer (default: the process's own meter). */
  loggedText?: TextMeter;
  /** Called once a run has settled (its end delivered, its records written): the daemon checkpoints the WAL then. */
  afterRun?: () => void;
  /** Whether the data dir's disk has room (default: no reserve, never known to be full). */
  space?: DiskSpace;
  /** How a remote run's clean-up that could not reach its location is retried (default: remote-cleanups.ts). */
  remoteCleanup?: RemoteCleanupTimings;
  /** Start every project's own MCP servers without asking for consent (`od run --trust-project-mcp`). */
  trustProjectMcp?: boolean;
};

/** Ends a run: records what it changed, appends `end`, stores the outcome and the folded message. */
type RunFinisher = (ending: RunEnding, exit: { code: number | null; signal: string | null }) => Promise<void>;

type LiveRun = {
  id: string;
  log: RunEventLog;
  abort: AbortController;
  input?: MidTurnInput;
  done: Promise<void>;
  /** Removes the run's temp inputs (generated MCP config, a remote run's staging folder). */
  cleanup?: () => void | Promise<void>;
  /** The run's whole answer on disk, written only once the fold is cut. */
  output?: RunOutputFile;
  /** A write of the run's failed (a full disk): the run is stopped and ends failed with it. */
  storeFailure?: unknown;
  /** The open questions of an `ask` or `read-only` run (absent for `bypass`). */
  approvals?: RunApprovals;
};

export class RunService {
  readonly #live = new Map<string, LiveRun>();
  readonly #timeouts: RunTimeouts;
  readonly #platform: NodeJS.Platform;
  readonly #remote: RemoteContext;
  readonly #locations: MachineDetections;
  /** Remote runs' sweeps: the ones that could not reach their location are kept and retried there. */
  readonly #cleanups: RemoteCleanups;
  /** Aborted by `hurry()`: every cancel ladder from then on (and any in progress) skips its grace waits. */
  readonly #hurry = new AbortController();
  /** Counts the events runs stream: the JIT compiles as usual once a stream proves long (platform/jit-policy.ts). */
  readonly #countForJit = jitAfterEvents();
  /** The event text every run logs, from which a run's end decides to collect before storing its answer. */
  readonly #loggedText: TextMeter;
  readonly #space: DiskSpace;
  #shuttingDown = false;

  constructor(private readonly deps: RunServiceDeps) {
    this.#timeouts = resolveRunTimeouts(deps.env, deps.timeouts);
    this.#platform = deps.platform ?? process.platform;
    this.#remote = deps.remote ?? { env: deps.env };
    this.#loggedText = deps.loggedText ?? loggedEventText;
    this.#space = deps.space ?? new DiskSpace(undefined);
    this.#cleanups = new RemoteCleanups({ repo: deps.store.pendingSweeps, context: this.#remote, graceMs: this.#timeouts.cancelGraceMs, ...(deps.remoteCleanup ? { timings: deps.remoteCleanup } : {}) });
    this.#locations =
      deps.locations ??
      new MachineDetections({
        defs: deps.defs,
        deps: () => ({ env: deps.env, configuredEnv: (id) => deps.store.appConfig.get().agentCliEnv?.[id] }),
        deadlineMs: passDeadlineFromEnv(deps.env),
      });
  }

  /**
   * Runs whose od process died (a daemon restart, a killed `od run`) can never finish: end them now, ids continuing,
   * and sweep any agent process of theirs still carrying the run cookie. Runs another live od process owns are left
   * alone. Returns how many were ended.
   */
  recoverInterruptedRuns(filter: { conversationId?: string } = {}): number {
    let recovered = 0;
    for (const run of this.deps.store.runs.unfinished(filter)) {
      if (this.#live.has(run.id) || (run.owner && run.owner.pid !== process.pid && isSameProcessRunning(run.owner))) continue;
      this.#endLostRun(run);
      const { machine } = this.#placeOf(this.deps.store.projects.get(run.projectId)?.path ?? "");
      this.#cleanups.sweepLost({ runId: run.id, rootPid: run.pid ?? 0, ...(run.owner ? { since: run.owner.startTime } : {}) }, machine, this.#hurry.signal);
      recovered++;
    }
    return recovered;
  }

  /**
   * Ends a run whose od died: its answer, tool calls and usage are rebuilt from the events it stored, and it ends when
   * it was last seen (its last stored event), not when a later od noticed, so its duration is what it ran.
   */
  #endLostRun(run: RunSummary): void {
    const { store } = this.deps;
    const stored = foldStoredRun(store.runs, run.id);
    const startedAt = run.startedAt ?? run.createdAt;
    const endedAt = Math.max(startedAt, stored.lastEventAt ?? startedAt);
    const ending: RunEnding = { status: "failed", failureCategory: "crash", failureDetail: "daemon_restart", reason: "od stopped while this run was in progress" };
    const exit = { code: null, signal: null };
    new RunEventLog(run.id, store.runs).append(endEvent(ending, exit, run.files, startedAt, endedAt), endedAt);
    this.#finishRecords(run.id, ending, exit, run.files, stored.tally, endedAt);
    const messageId = store.messages.ofRun(run.id);
    if (messageId) store.messages.complete(messageId, { events: stored.folder.events, endedAt, files: run.files });
  }

  /** od starting: retry the remote clean-ups an earlier od process (or this one) could not finish. */
  resumeRemoteCleanups(): void {
    this.#cleanups.resume();
  }

  /** Validate and start a run; resolves once it is queued (the agent starts in the background). */
  async create(request: CreateRunRequest): Promise<{ runId: string; conversationId: string }> {
    if (this.#shuttingDown) throw new OdError("unavailable", "UPSTREAM_UNAVAILABLE", "od is shutting down");
    if (!this.#space.available()) throw new OdError("storage_full", "DISK_FULL", DISK_FULL_MESSAGE);
    const { store } = this.deps;
    const project = store.projects.get(request.projectId);
    if (!project) throw new OdError("not_found", "PROJECT_NOT_FOUND", `no project ${request.projectId}`);
    // Where the run works; on another machine or in a container, what detection found there decides.
    const place = runPlaceOf(this.#placeOf(project.path), { env: this.deps.env, resolveLaunch: (def) => (this.deps.resolveLaunch ?? ((d) => this.#defaultLaunch(d)))(def) });
    const { def, detected } = await this.#chooseAgentOn(place.machine, request.agentId);
    const saved = store.appConfig.get().agentModels?.[def.id];
    const model = request.model === undefined ? (saved?.model ?? null) : request.model;
    const reasoning = request.reasoning === undefined ? (saved?.reasoning ?? null) : request.reasoning;
    this.#validateModel(def, model, reasoning, detected.liveModels(def.id));
    const permissionMode = resolveRunPermissionMode(def, request.permissionMode, store.appConfig.get(), project.id, this.deps.env);

    if (request.conversationId) {
      const conversation = store.conversations.get(request.conversationId);
      if (!conversation || conversation.projectId !== project.id) {
        throw new OdError("not_found", "CONVERSATION_NOT_FOUND", `no conversation ${request.conversationId} in this project`);
      }
      this.recoverInterruptedRuns({ conversationId: request.conversationId });
    }

    const runId = newId("run");
    // One transaction: a run's records exist together or not at all (one commit, not five), and two od processes
    // cannot both start a run in one conversation between the check and the insert.
    const { conversationId, history, assistantMessageId } = this.#storingNew(() => store.transaction(() => {
      if (request.conversationId && store.runs.list({ conversationId: request.conversationId, status: "active" }).length) {
        throw new OdError("conflict", "RUN_IN_PROGRESS", "this conversation already has a run in progress; cancel it or wait");
      }
      const conversationId = request.conversationId ?? store.conversations.create(project.id, titleFrom(request.message)).id;
      const history = store.messages.transcript(conversationId);
      store.runs.create({ id: runId, projectId: project.id, conversationId, agentId: def.id, model, reasoning, owner: ownProcessIdentity() });
      store.messages.add({ conversationId, role: "user", text: request.message });
      const assistantMessageId = store.messages.add({ conversationId, role: "assistant", text: "", runId, agentId: def.id, startedAt: Date.now() });
      store.conversations.touch(conversationId);
      return { conversationId, history, assistantMessageId };
    }));

    const log = new RunEventLog(runId, store.runs, { countText: this.#loggedText.count, onStoreError: (error) => this.#storeFailed(live, error) });
    const live: LiveRun = { id: runId, log, abort: new AbortController(), done: Promise.resolve() };
    this.#live.set(runId, live);
    live.done = this.#execute(live, { def, project, place, conversationId, assistantMessageId, request, model, reasoning, permissionMode, history, detected })
      .catch((error) => this.#crash(live, error))
      .finally(async () => {
        live.approvals?.close();
        await Promise.resolve(live.cleanup?.()).catch(() => undefined);
        live.output?.close();
        this.#live.delete(runId);
        this.deps.afterRun?.();
      });
    return { runId, conversationId };
  }

  /** A run's summary; a live run's lists the approval requests waiting for an answer. */
  get(runId: string): RunSummary | undefined {
    const summary = this.deps.store.runs.get(runId);
    const approvals = this.#live.get(runId)?.approvals;
    return summary && approvals ? { ...summary, pendingApprovals: approvals.pending() } : summary;
  }

  /** A person's answer to one approval request of a live run (`unknown` also when the run is not live). */
  answerApproval(runId: string, approvalId: string, decision: ApprovalDecision, message?: string): AnswerResult {
    return this.#live.get(runId)?.approvals?.answer(approvalId, decision, message) ?? "unknown";
  }

  list(filter: { projectId?: string; conversationId?: string; status?: RunStatus | "active" }): RunSummary[] {
    return this.deps.store.runs.list(filter);
  }

  /** Everything after `afterId`, then live events until `end`. */
  events(runId: string, afterId = 0, signal?: AbortSignal): AsyncIterable<RunEvent> {
    const live = this.#live.get(runId);
    return live ? live.log.follow(afterId, signal) : replayPersisted(this.deps.store.runs, runId, afterId);
  }

  /** `events` in batches of whatever is available at once, for streaming readers (SSE writes a batch as one chunk). */
  eventBatches(runId: string, afterId = 0, signal?: AbortSignal): AsyncIterable<LoggedEvent[]> {
    const live = this.#live.get(runId);
    return live ? live.log.followBatches(afterId, signal) : replayPersistedBatches(this.deps.store.runs, runId, afterId);
  }

  /**
   * A run's stored events for the page to fold as history (server/runs/history.ts), read a page at a time. A live
   * run's pending events are written first, so the history holds everything it has streamed.
   */
  async history(runId: string): Promise<RunEvent[]> {
    this.#live.get(runId)?.log.flush();
    const history = new RunHistory({ fullOutput: this.output(runId, 0, 1) !== undefined });
    for await (const page of replayPersistedBatches(this.deps.store.runs, runId, 0)) {
      for (const logged of page) history.push(parseLoggedEvent(logged));
    }
    return history.events;
  }

  /**
   * Bytes [offset, offset + limit) of a run's whole answer, for a run whose stored message was cut; undefined when
   * the run has no such file (its message holds all of its answer).
   */
  output(runId: string, offset = 0, limit?: number): OutputRange | undefined {
    return this.deps.outputDir ? readOutputRange(this.deps.outputDir, runId, offset, limit) : undefined;
  }

  /** Request cancellation; resolves once the run has ended. False when the run is not live. */
  async cancel(runId: string): Promise<boolean> {
    const live = this.#live.get(runId);
    if (!live) return false;
    this.deps.store.runs.markCancelRequested(runId);
    live.approvals?.close();
    live.abort.abort();
    await live.done;
    return true;
  }

  /** Forward another user message into a running stream-json turn. */
  async input(runId: string, message: string): Promise<void> {
    const live = this.#live.get(runId);
    if (!live) throw new OdError("conflict", "RUN_NOT_LIVE", "this run is not running");
    if (!live.input) throw new OdError("conflict", "INPUT_NOT_SUPPORTED", "this agent does not accept messages mid-turn (or its turn has ended)");
    if (!(await live.input.send(streamJsonUserLine(message)))) throw new OdError("conflict", "INPUT_NOT_SUPPORTED", "the agent's input is closed");
    live.log.append({ type: "diagnostic", kind: "input", message: "forwarded a message to the running agent", detail: { message } });
  }

  /** Resolves when the run has ended (or at once when it is not live). */
  async wait(runId: string): Promise<RunSummary | undefined> {
    await this.#live.get(runId)?.done;
    return this.get(runId);
  }

  /**
   * Stop faster (a second Ctrl-C): the cancel ladders of every run, running or to come, stop waiting out their
   * grace periods. They still run every step, so nothing is left behind.
   */
  hurry(): void {
    this.#hurry.abort();
  }

  /** Waits (at most `timeoutMs`) for remote sweeps still going on after their runs ended (`od run` before it exits). */
  remoteCleanupsSettled(timeoutMs: number): Promise<void> {
    return this.#cleanups.settled(timeoutMs);
  }

  /** Cancel every live run (daemon shutdown); resolves when all have ended. */
  async shutdown(): Promise<void> {
    this.#shuttingDown = true;
    await Promise.all([...this.#live.keys()].map((id) => this.cancel(id)));
    this.#cleanups.dispose();
  }

  /** Chosen by what detection found on the run's machine (another machine's: kept from a recent probe, or probed now). */
  async #chooseAgentOn(machine: Machine, agentId: string | undefined): Promise<{ def: RuntimeAgentDef; detected: DetectedAgents }> {
    const wanted = this.#wantedAgentId(agentId);
    const kept = await awaitProbingAgent(await detectedOn(machine, this.deps.agents, this.#locations), wanted, this.deps.defs);
    try {
      return { def: this.#chooseAgent(agentId, kept), detected: kept };
    } catch (error) {
      // A kept result that refuses is checked once more: the CLI may have been installed (or its PATH set) since.
      if (!kept.kept || !(error instanceof OdError) || error.code === "UNKNOWN_AGENT") throw error;
      const fresh = await awaitProbingAgent(await detectedOn(machine, this.deps.agents, this.#locations, true), wanted, this.deps.defs);
      return { def: this.#chooseAgent(agentId, fresh), detected: fresh };
    }
  }

  /** The agent a run without one goes to first: the one asked for, else the configured one. */
  #wantedAgentId(agentId: string | undefined): string | undefined {
    return agentId ?? this.deps.store.appConfig.get().agentId ?? undefined;
  }

  /** The agent asked for, which must be available where the run goes; else the configured one, else the first. */
  #chooseAgent(agentId: string | undefined, detected: DetectedAgents): RuntimeAgentDef {
    const infos = detected.agents;
    const on = detected.where ? ` on ${detected.where}` : "";
    const available = (id: string) => infos.find((info) => info.id === id)?.state === "available";
    if (agentId) {
      const def = this.deps.defs.find((d) => d.id === agentId);
      if (!def) throw new OdError("invalid", "UNKNOWN_AGENT", `unknown agent '${agentId}' (known: ${this.deps.defs.map((d) => d.id).join(", ")})`);
      if (!available(agentId)) {
        // The first diagnostic says why and, for a missing CLI, how to install it or point <ID>_BIN (or PATH) at it.
        const diagnostic = infos.find((i) => i.id === agentId)?.diagnostics[0];
        const why = diagnostic ? [diagnostic.message, diagnostic.detail].filter(Boolean).join(" ").replace(/\s*\n\s*/g, " ") : "it is not installed";
        throw new OdError("invalid", "AGENT_UNAVAILABLE", `${def.name} is not available${on}: ${why}`);
      }
      return def;
    }
    const configured = this.deps.store.appConfig.get().agentId;
    const chosen = (configured && available(configured) ? configured : undefined) ?? infos.find((i) => i.state === "available")?.id;
    const def = chosen ? this.deps.defs.find((d) => d.id === chosen) : undefined;
    if (!def) throw new OdError("invalid", "NO_AGENT_AVAILABLE", detected.where ? `no agent CLI is available${on}; install one there` : "no agent CLI is available; install one and rescan");
    return def;
  }

  #validateModel(def: RuntimeAgentDef, model: string | null, reasoning: string | null, liveModels: RuntimeModelOption[] | undefined): void {
    const explicit = model && model !== "default" ? model : null;
    const known = liveModels ?? def.fallbackModels;
    if (explicit) {
      if (/\s/.test(explicit) || explicit.length > 200) throw new OdError("invalid", "INVALID_MODEL", `'${explicit}' is not a valid model id`);
      if (def.supportsCustomModel === false && !known.some((m) => m.id === explicit)) {
        throw new OdError("invalid", "UNKNOWN_MODEL", `${def.name} has no model '${explicit}' (choose one of: ${known.map((m) => m.id).join(", ")})`);
      }
    }
    if (reasoning && reasoning !== "default") {
      const modelChoices = explicit ? known.find((m) => m.id === explicit)?.reasoningOptions : undefined;
      const choices = modelChoices ?? def.reasoningOptions;
      if (!choices?.some((c) => c.id === reasoning)) {
        throw new OdError("invalid", "UNKNOWN_REASONING", `${def.name} has no reasoning option '${reasoning}'`);
      }
    }
  }

  async #execute(live: LiveRun, run: RunPlan): Promise<void> {
    const { store } = this.deps;
    const { def, project, conversationId } = run;
    const started = Date.now();
    if (this.deps.outputDir) live.output = new RunOutputFile(this.deps.outputDir, live.id, (error) => this.#storeFailed(live, error));
    const folder = new EventFolder({ spill: live.output });
    const tally = new UsageTally();
    /** The attempt's artifact spool (plain streams only): fed the answer as it streams, never the whole text. */
    let artifacts: ArtifactSpool | undefined;
    const emit = (event: NewRunEvent) => {
      if (event.type === "agent") {
        folder.push(event.event);
        tally.push(event.event);
        if (artifacts && event.event.type === "text_delta") artifacts.push(event.event.delta);
      }
      live.log.append(event);
      this.#countForJit();
    };
    if (run.permissionMode !== "bypass") {
      const timeoutMs = store.appConfig.get().approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
      live.approvals = new RunApprovals({ mode: run.permissionMode, timeoutMs, emit: (event) => emit({ type: "agent", event }) });
    }
    // The project's machine and folder: the agent runs there (here, or through ssh or docker exec).
    const { place } = run;
    const { machine, folder: workDir } = place;
    // What the run changes in its folder (git's view in a work tree, a bounded walk elsewhere), kept with diffs.
    const changes = await place.changes((message) => emit({ type: "diagnostic", kind: "remote_changes", message }));
    for (const notice of place.earlierCleanupNotices(store.runs.list({ conversationId }), live.id)) emit(notice);
    const files = new Set<string>();
    /**
     * The machine did not answer the run's sweep: nothing more is asked of it before the run ends (its change
     * snapshot or artifact writes would each wait out their own timeout on it).
     */
    let unanswered = false;

    const finish = async (judged: RunEnding, exit: { code: number | null; signal: string | null }) => {
      live.approvals?.close();
      // A run stopped because its events could not be stored ends with that, whatever the agent did.
      const ending = live.storeFailure === undefined ? judged : storeFailureEnding(live.storeFailure);
      if (ending !== judged) emit({ type: "error", message: ending.reason, error: { code: ending.errorCode!, message: ending.reason } });
      if (unanswered) emit({ type: "diagnostic", kind: "remote_changes", message: `${machine.label} did not answer; this run's changes are not recorded` });
      const changed = unanswered ? [] : await changes.finish();
      const seenAfter = new Set(changed.flatMap((change) => (change.kind === "deleted" ? [] : [change.path])));
      for (const path of seenAfter) files.add(path);
      this.#storingLast(() => store.runChanges.save(live.id, changes.source, changed));
      // Only files that exist after the run are listed; a machine that did not answer cannot be asked.
      const note = (message: string) => emit({ type: "diagnostic", kind: "remote_files", message });
      if (unanswered && files.size) note("the project's machine did not answer, so which of the run's files exist there could not be checked; none is listed");
      const produced = unanswered ? [] : await place.existingFiles(files, seenAfter, note);
      live.log.append(endEvent(ending, exit, produced, started));
      this.#storingLast(() => this.#finishRecords(live.id, ending, exit, produced, tally));
      live.output?.close();
      // Writing the folded answer makes a few brief copies of it (its JSON, sqlite's binding and record). After a
      // long stream the heap is full of its garbage, and the copies grew it further: a large answer is written after
      // a collection (a 3M-character answer: peak RSS 120 MB instead of 104 MB), and so is any answer once the
      // process's runs together have logged much text since the last one (ten runs of 10k events each ending at
      // once: the daemon's peak over idle ~2 MB lower, its worst rounds 2–5 MB; see LOGGED_CHARS_BEFORE_ANSWER_GC).
      if (folder.keptChars >= LARGE_FOLD_CHARS || this.#loggedText.chars >= LOGGED_CHARS_BEFORE_ANSWER_GC) {
        (this.deps.collectGarbage ?? collectGarbage)();
        this.#loggedText.reset();
      }
      const endedAt = Date.now();
      this.#storingLast(
        () => store.messages.complete(run.assistantMessageId, { events: eventsWithRunReason(folder.events, ending), endedAt, files: produced }),
        // No room for the whole answer: its end, which the reserve has room for.
        () => store.messages.complete(run.assistantMessageId, { events: [{ type: "text", text: folder.text.slice(-ANSWER_TAIL_WHEN_FULL) }], endedAt, files: produced }),
      );
    };

    // The executable is resolved here, or looked up on the machine's PATH where the run starts it.
    const launch = place.agentLaunch(def);
    if (!launch) {
      emit({ type: "error", message: `${def.name} is not installed`, error: { code: "AGENT_NOT_INSTALLED", message: `${def.name} is not installed` } });
      return finish({ status: "failed", failureCategory: "config", failureDetail: "cli_not_installed", errorCode: "AGENT_NOT_INSTALLED", reason: `${def.name} is not installed` }, { code: null, signal: null });
    }

    let reader: Invocation["reader"];
    try {
      reader = readerFor(resolveDefTransport(def, this.deps.env));
    } catch (error) {
      return this.#failConfig(emit, finish, "UNSUPPORTED_STREAM_FORMAT", (error as Error).message);
    }
    const resumeStyle = nativeResumeStyle(def, reader);
    let handle = resumeStyle ? store.agentSessions.get(conversationId, def.id) : undefined;
    // --- run inputs: skills, MCP servers, images (server/inputs/run-inputs.ts); problems are diagnostics ---
    // On a remote location they are staged there, in a folder of the run's that its cleanup removes.
    const wanted = {
      runId: live.id,
      def,
      message: run.request.message,
      skillIds: run.request.skillIds ?? [],
      attachments: run.request.attachments ?? [],
      note: (note: RunInputNote) => emit({ type: "diagnostic", ...note }),
      // A project's own MCP servers start programs: only the list the person approved for this project (mcp/project-consent.ts).
      projectMcpConsent: (hash: string) => this.deps.trustProjectMcp === true || store.mcpConsents.get(project.id)?.serversHash === hash,
    };
    const provider = this.deps.inputs ?? defaultInputs;
    const inputs = await place.prepareInputs(provider, { ...wanted, projectId: project.id });
    live.cleanup = inputs.cleanup;
    const imagePaths = inputs.imagePaths;

    for (let attemptIndex = 0; attemptIndex < 2; attemptIndex++) {
      const useNative = Boolean(handle);
      const newSessionId = resumeStyle === "specify" && !handle ? crypto.randomUUID() : undefined;
      const prompt = composePrompt({ message: run.request.message, history: run.history, includeTranscript: !useNative, systemPreamble: inputs.systemPreamble });

      const budget = def.maxPromptArgBytes ? checkPromptArgvBudget(def, prompt, this.#platform) : null;
      if (budget) return this.#failBudget(emit, finish, budget);

      if (def.promptViaFile && !inputs.promptFile) {
        return this.#failConfig(emit, finish, "REMOTE_UNSUPPORTED", `${def.name} reads its prompt from a file, and no staging folder could be made for it on ${machine.label}`);
      }
      // In the run's private folder (a 0700 mkdtemp one here, a mktemp -d one there), removed when the run ends.
      let promptFilePath: string | undefined;
      try {
        promptFilePath = def.promptViaFile ? inputs.promptFile?.path(attemptIndex) : undefined;
      } catch (error) {
        return this.#failConfig(emit, finish, "PROMPT_FILE_UNWRITABLE", `no private folder could be made for ${def.name}'s prompt file: ${(error as Error).message}`);
      }
      const context = {
        cwd: workDir,
        resumeSessionId: handle ?? null,
        ...(newSessionId ? { newSessionId } : {}),
        ...(promptFilePath ? { promptFilePath } : {}),
        capabilities: run.detected.capabilities(def.id),
        liveModels: run.detected.liveModels(def.id),
        platform: this.#platform,
        env: this.deps.env,
        hasPriorAssistantTurn: run.history.some((m) => m.role === "assistant"),
        ...inputs.context,
      };
      let invocation: Invocation;
      try {
        invocation = buildInvocationFor(def, prompt, workDir, run, context, this.deps.env, imagePaths, inputs.extraAllowedDirs);
      } catch (error) {
        // Arg builders refuse combinations the CLI would reject (e.g. a reasoning level the model lacks).
        return this.#failConfig(emit, finish, "INVALID_INVOCATION", (error as Error).message);
      }
      const argv = launchArgv(launch, invocation.args);
      const windowsBudget = def.maxPromptArgBytes && place.spawnsHere
        ? (checkWindowsCmdShimCommandLineBudget(launch.path, invocation.args, def) ?? checkWindowsDirectExeCommandLineBudget(launch.path, invocation.args, def))
        : null;
      if (windowsBudget) return this.#failBudget(emit, finish, windowsBudget);

      emit({
        type: "start",
        runId: live.id,
        agentId: def.id,
        bin: launch.path,
        protocolVersion: 1,
        cwd: project.path,
        projectId: project.id,
        conversationId,
        model: run.model,
        reasoning: run.reasoning,
        attemptIndex,
        resume: useNative ? "native" : run.history.length ? "transcript" : "new",
      });
      if (promptFilePath && inputs.promptFile) {
        try {
          await inputs.promptFile.write(promptFilePath, invocation.promptFileContent ?? prompt);
        } catch (error) {
          return this.#failConfig(emit, finish, place.spawnsHere ? "PROMPT_FILE_UNWRITABLE" : "REMOTE_UNSUPPORTED", (error as Error).message);
        }
      }
      if (newSessionId) store.agentSessions.set(conversationId, def.id, newSessionId);

      let outcome: AttemptOutcome;
      // Artifacts of plain streams are files od writes into the project, here or on the remote side.
      artifacts = extractsArtifacts(invocation.reader) ? new ArtifactSpool() : undefined;
      const agentEnv = inputs.applyEnv(place.agentEnv(def, store.appConfig.get().agentCliEnv?.[def.id], live.id));
      try {
        outcome = await runAttempt(
          {
            runId: live.id,
            cwd: workDir,
            start: machine.startAgent(
              { folder: workDir, argv, env: agentEnv, runId: live.id, stdin: invocation.delivery.kind !== "argv" },
              this.#cleanups.sweeperFor(machine),
            ),
            invocation,
            transportOptions: {
              cwd: workDir,
              prompt,
              model: run.model,
              reasoning: run.reasoning,
              imagePaths,
              ...(inputs.localImagePaths ? { localImagePaths: inputs.localImagePaths } : {}),
              mcpServers: inputs.mcpServers,
              resumeSessionId: handle ?? null,
              def: transportFacts(def),
              env: this.deps.env,
              // DSH scopes its frames by request id: the run id.
              requestId: live.id,
              permissionMode: run.permissionMode,
              machine,
            },
            timeouts: {
              firstOutputMs: this.#timeouts.firstOutputMs(def),
              inactivityMs: this.#timeouts.inactivityMs(def),
              cancelGraceMs: this.#timeouts.cancelGraceMs,
            },
            signal: live.abort.signal,
            hurry: this.#hurry.signal,
            ...(live.approvals ? { askApproval: live.approvals.ask.bind(live.approvals) } : {}),
            emit,
            onSpawn: (pid) => store.runs.markRunning(live.id, pid),
          },
          (input) => {
            live.input = input;
          },
        );
        for (const path of outcome.toolPaths) if (place.holds(path)) files.add(path);
        if (outcome.cleanupPending) {
          unanswered = true;
          this.#reportCleanupPending(live, emit, machine.label, outcome.cleanupPending);
        }
        if (artifacts && !outcome.canceled && !unanswered) {
          const written = await place.placeArtifacts(artifacts, (message) => emit({ type: "diagnostic", kind: "remote_artifacts", message }));
          for (const artifact of written) {
            emit({ type: "agent", event: artifact });
            if (artifact.path) files.add(artifact.path);
          }
        }
      } finally {
        artifacts?.[Symbol.dispose]();
        artifacts = undefined;
      }

      if (useNative && attemptIndex === 0 && looksLikeStaleSession(outcome)) {
        store.agentSessions.clear(conversationId, def.id);
        handle = undefined;
        emit({ type: "diagnostic", kind: "session_reseed", message: `${def.name} no longer has the saved session; resending the conversation in the prompt` });
        continue;
      }

      const ending = judgeAttempt(def.id, def.name, outcome);
      if (ending.status === "succeeded") {
        if (resumeStyle === "capture" && outcome.sessionId) store.agentSessions.set(conversationId, def.id, outcome.sessionId);
      } else if (newSessionId && !outcome.sawOutput) {
        store.agentSessions.clear(conversationId, def.id);
      }
      if (ending.status === "failed") {
        emit({ type: "error", message: ending.reason, error: { code: ending.errorCode ?? "AGENT_EXECUTION_FAILED", message: ending.reason, ...(ending.guidance ? { details: { guidance: ending.guidance } } : {}) } });
      }
      for (const event of ending.warning ? warningEvents(ending.warning) : []) emit(event);
      return finish(ending, { code: outcome.exit?.code ?? null, signal: outcome.exit?.signal ?? null });
    }
  }

  /**
   * The run's sweep did not reach its location: the run says so before its `end` (always its last event), its summary
   * follows the clean-up from here (`cleanup`), and its staging folder there is removed by the sweep that reaches it.
   */
  #reportCleanupPending(live: LiveRun, emit: (e: NewRunEvent) => void, where: string, pending: { since: number; why: string }): void {
    emit({
      type: "diagnostic",
      kind: "cleanup_pending",
      message: `could not reach ${where} to end what is left of this run there (${pending.why}); od retries when ${where} answers again, and the run's summary says when it is done`,
      detail: { location: where, since: pending.since, why: pending.why },
    });
    live.cleanup = undefined;
  }

  #failConfig(emit: (e: NewRunEvent) => void, finish: RunFinisher, code: string, message: string): Promise<void> {
    emit({ type: "error", message, error: { code, message } });
    return finish({ status: "failed", failureCategory: "config", errorCode: code, reason: message }, { code: null, signal: null });
  }

  #failBudget(emit: (e: NewRunEvent) => void, finish: RunFinisher, budget: { code: string; message: string }): Promise<void> {
    emit({ type: "agent", event: { type: "error", message: budget.message, code: budget.code, terminal: true } });
    emit({ type: "error", message: budget.message, error: { code: budget.code, message: budget.message } });
    return finish({ status: "failed", failureCategory: "config", failureDetail: "prompt_too_large", errorCode: budget.code, reason: budget.message }, { code: null, signal: null });
  }

  /** The machine a project path is on, and its folder there. */
  #placeOf(projectPath: string): MachinePlace {
    return placeOf(projectPath, this.#remote);
  }

  #defaultLaunch(def: RuntimeAgentDef): AgentLaunch | undefined {
    const resolved = resolveAgentLaunch(def, { env: this.deps.env, platform: this.#platform });
    return resolved.ok ? resolved.launch : undefined;
  }

  #finishRecords(runId: string, ending: RunEnding, exit: { code: number | null; signal: string | null }, files: string[], tally?: UsageTally, endedAt?: number): void {
    this.deps.store.runs.finish(runId, {
      ...(endedAt !== undefined ? { endedAt } : {}),
      ...(tally ? { usage: tally.totals } : {}),
      status: ending.status,
      exitCode: exit.code,
      signal: exit.signal,
      failureCategory: ending.failureCategory ?? null,
      failureDetail: ending.failureDetail ?? null,
      reason: ending.reason,
      errorCode: ending.errorCode ?? null,
      files,
    });
  }

  /** A bug of ours must still end the run, observably. */
  #crash(live: LiveRun, error: unknown): void {
    if (live.log.ended) return;
    if (isDiskFull(error)) this.#storeFailed(live, error);
    const message = error instanceof Error ? error.message : String(error);
    const ending: RunEnding =
      live.storeFailure === undefined ? { status: "failed", failureCategory: "crash", failureDetail: "internal_error", reason: message } : storeFailureEnding(live.storeFailure);
    const code = ending.errorCode ?? "INTERNAL";
    live.log.append({ type: "error", message: code === "INTERNAL" ? `od failed while running the agent: ${message}` : ending.reason, error: { code, message: ending.reason } });
    live.log.append(endEvent(ending, { code: null, signal: null }, [], Date.now()));
    this.#storingLast(() => this.#finishRecords(live.id, ending, { code: null, signal: null }, []));
  }

  /** A write of `live`'s failed: stop the run, which then ends failed with the failure (see `finish`). */
  #storeFailed(live: LiveRun, error: unknown): void {
    if (live.storeFailure !== undefined) return;
    live.storeFailure = error;
    live.output?.abandon();
    if (isDiskFull(error)) this.#space.exhausted();
    live.abort.abort();
  }

  /** A new run's records: a full disk refuses them with a 507 `DISK_FULL` (and gives up the reserve, see DiskSpace). */
  #storingNew<T>(write: () => T): T {
    try {
      return write();
    } catch (error) {
      if (!isDiskFull(error)) throw error;
      this.#space.exhausted();
      throw new OdError("storage_full", "DISK_FULL", DISK_FULL_MESSAGE);
    }
  }

  /**
   * One of a run's last records. A full disk's first refusal gives up the reserve (DiskSpace), and the write is tried
   * again (or `smaller` is); a second refusal is given up: a run's last records are worth trying, never worth the
   * daemon. Other errors go on as they are.
   */
  #storingLast(write: () => void, smaller: () => void = write): void {
    try {
      write();
    } catch (error) {
      if (!isDiskFull(error)) throw error;
      this.#space.exhausted();
      try {
        smaller();
      } catch (again) {
        if (!isDiskFull(again)) throw again;
        console.error(`od: ${DISK_FULL_MESSAGE}`);
      }
    }
  }
}

type RunPlan = {
  def: RuntimeAgentDef;
  project: Project;
  conversationId: string;
  assistantMessageId: string;
  request: CreateRunRequest;
  model: string | null;
  reasoning: string | null;
  permissionMode: PermissionMode;
  /** The conversation's turns so far (role and text): the transcript a prompt carries. */
  history: TranscriptTurn[];
  /** What detection found where the run goes: its flags and models shape the invocation. */
  detected: DetectedAgents;
  /** Where the run works: its machine, its folder there, and how it works with them. */
  place: RunPlace;
};


function buildInvocationFor(
  def: RuntimeAgentDef,
  prompt: string,
  cwd: string,
  run: RunPlan,
  context: Parameters<typeof buildInvocation>[1]["context"],
  env: EnvMap,
  imagePaths: string[] = [],
  extraAllowedDirs: string[] = [],
): Invocation {
  return buildInvocation(def, {
    prompt,
    imagePaths: def.supportsImagePaths ? imagePaths : [],
    extraAllowedDirs,
    options: { model: run.model, reasoning: run.reasoning, permissionMode: run.permissionMode },
    context: { cwd, ...context },
    env,
  });
}

/** No skill library and no user MCP list: project MCP config and images still apply. */
const defaultInputs = createRunInputs();

/** How a def continues a conversation natively: we mint the id (specify), it reports one (capture), or not at all. */
function nativeResumeStyle(def: RuntimeAgentDef, reader: Invocation["reader"]): "specify" | "capture" | null {
  if (reader.kind === "protocol") {
    if (reader.format === "acp-json-rpc") return def.resumesSessionViaAcpLoad ? "capture" : null;
    return "capture";
  }
  if (!def.resumesSessionViaCli) return null;
  return def.capturesSessionIdFromStream ? "capture" : "specify";
}


function titleFrom(message: string): string {
  const line = message.trim().split("\n")[0] ?? "";
  return line.length > 60 ? `${line.slice(0, 57)}…` : line || "New conversation";
}
