/**
 * The run service: turns a request into a run of one agent in one project folder, streams its events through a
 * replayable log, and always ends it — succeeded, failed or canceled — with nothing of it left running.
 * It is the one owner of every agent child process the daemon starts.
 */
import type { ApprovalDecision, QuestionAnswers } from "../contracts/approvals.ts";
import type { CreateRunRequest, RunEvent, RunStatus, RunSummary } from "../contracts/runs.ts";
import { OdError } from "../errors.ts";
import type { RunInputsProvider } from "../inputs/run-inputs.ts";
import type { MachinePlace } from "../machines/machine.ts";
import { placeOf } from "../machines/machine-of.ts";
import { RemoteCleanups, type RemoteCleanupTimings } from "../machines/remote-cleanups.ts";
import type { RemoteContext } from "../machines/remote-exec.ts";
import { dataPaths, resolveDataDir } from "../paths.ts";
import { jitAfterEvents } from "../platform/jit-policy.ts";
import { streamJsonUserLine } from "../runtimes/invocation.ts";
import { resolveAgentLaunch, type AgentLaunch } from "../runtimes/launch.ts";
import { MachineDetections } from "../runtimes/machine-detections.ts";
import type { EnvMap, RuntimeAgentDef } from "../runtimes/types.ts";
import { DISK_FULL_MESSAGE, DiskSpace, isDiskFull, keepWhileRoom } from "../store/disk-space.ts";
import { parseLoggedEvent, type LoggedEvent } from "../store/event-json.ts";
import { newId } from "../store/ids.ts";
import type { Store } from "../store/store.ts";
import { WorktreeService, type WorktreeBase } from "../worktrees/worktree-service.ts";
import type { AnswerResult } from "./approvals.ts";
import { RunEventLog, replayPersisted, replayPersistedBatches } from "./event-log.ts";
import { bulkTextPacer, concurrentRunsPacer, loggedEventText, loggedTextCounter, type GarbagePacer, type TextMeter } from "./garbage-pacer.ts";
import { historyBefore } from "./conversation-history.ts";
import { RunHistory } from "./history.ts";
import type { LiveRun } from "./live-run.ts";
import { readOutputRange, type OutputRange } from "./output-file.ts";
import { isSameProcessRunning, ownProcessIdentity } from "./process-identity.ts";
import { endCrashedRun, endLostRun } from "./recovery.ts";
import type { ExecutionEnv } from "./run-execution.ts";
import { RunRecords } from "./run-records.ts";
import { RunWorkplaces } from "./run-workplace.ts";
import { RunAgentChoice, type AgentDirectory } from "./run-agent-choice.ts";
import { resolveRunTimeouts, type RunTimeouts } from "./timeouts.ts";
import { TurnQueue } from "../next-turn.ts";

export type { AgentDirectory };

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
  /** Collects while runs stream together (default: the process's `concurrentRunsPacer`). */
  concurrentRunsPacer?: GarbagePacer;
  /** Collects while a run streams alone (default: the process's `bulkTextPacer`). */
  loneRunPacer?: GarbagePacer;
  /** Called once a run has settled (its end delivered, its records written): the daemon checkpoints the WAL then. */
  afterRun?: () => void;
  /** Whether the data dir's disk has room (default: no reserve, never known to be full). */
  space?: DiskSpace;
  /** How a remote run's clean-up that could not reach its location is retried (default: remote-cleanups.ts). */
  remoteCleanup?: RemoteCleanupTimings;
  /** Start every project's own MCP servers without asking for consent (`od run --trust-project-mcp`). */
  trustProjectMcp?: boolean;
  /** Isolated runs' worktrees (default: a service of this one's own, worktrees under `worktreesDir`). */
  worktrees?: WorktreeService;
  /** Where worktrees of projects on this machine go (default: `<data dir>/worktrees`). */
  worktreesDir?: string;
};

/** A run just created: its ids, and the base of its worktree when it works in one. */
export type CreatedRun = { runId: string; conversationId: string; base?: WorktreeBase };

export class RunService {
  readonly #live = new Map<string, LiveRun>();
  #started = 0;
  readonly #timeouts: RunTimeouts;
  readonly #platform: NodeJS.Platform;
  readonly #remote: RemoteContext;
  readonly #agentChoice: RunAgentChoice;
  /** Remote runs' sweeps: the ones that could not reach their location are kept and retried there. */
  readonly #cleanups: RemoteCleanups;
  /** Aborted by `hurry()`: every cancel ladder from then on (and any in progress) skips its grace waits. */
  readonly #hurry = new AbortController();
  /** Counts the events runs stream: the JIT compiles as usual once a stream proves long (platform/jit-policy.ts). */
  readonly #countForJit = jitAfterEvents();
  /** The event text every run logs, from which a run's end decides to collect before storing its answer. */
  readonly #loggedText: TextMeter;
  /** What each run's log counts its events' text with (garbage-pacer.ts). */
  readonly #countText: (chars: number) => void;
  readonly #space: DiskSpace;
  readonly #records: RunRecords;
  readonly #workplaces: RunWorkplaces;
  /** What each run's execution needs of this service. */
  readonly #execution: ExecutionEnv;
  /** Creations arriving together go on one per turn of the event loop (next-turn.ts). */
  readonly #creations = new TurnQueue();
  #shuttingDown = false;

  constructor(private readonly deps: RunServiceDeps) {
    this.#timeouts = resolveRunTimeouts(deps.env, deps.timeouts);
    this.#platform = deps.platform ?? process.platform;
    this.#remote = deps.remote ?? { env: deps.env };
    this.#loggedText = deps.loggedText ?? loggedEventText;
    const pacers = { alone: deps.loneRunPacer ?? bulkTextPacer, together: deps.concurrentRunsPacer ?? concurrentRunsPacer };
    this.#countText = loggedTextCounter(this.#loggedText, pacers, () => this.#live.size);
    this.#space = deps.space ?? new DiskSpace(undefined);
    this.#records = new RunRecords(deps.store, this.#space);
    this.#workplaces = new RunWorkplaces({ store: deps.store, worktrees: deps.worktrees ?? new WorktreeService({ store: deps.store, remote: this.#remote, localRoot: deps.worktreesDir ?? dataPaths(resolveDataDir(deps.env)).worktrees }) });
    this.#cleanups = new RemoteCleanups({ repo: deps.store.pendingSweeps, context: this.#remote, graceMs: this.#timeouts.cancelGraceMs, ...(deps.remoteCleanup ? { timings: deps.remoteCleanup } : {}) });
    this.#agentChoice = new RunAgentChoice(deps);
    this.#execution = {
      deps,
      timeouts: this.#timeouts,
      platform: this.#platform,
      hurry: this.#hurry.signal,
      countForJit: this.#countForJit,
      loggedText: this.#loggedText,
      records: this.#records,
      cleanups: this.#cleanups,
      storeFailed: (live, error) => this.#storeFailed(live, error),
    };
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
      endLostRun(this.deps.store, this.#records, run);
      const { machine } = this.#placeOf(this.deps.store.projects.get(run.projectId)?.path ?? "");
      this.#cleanups.sweepLost({ runId: run.id, rootPid: run.pid ?? 0, ...(run.owner ? { since: run.owner.startTime } : {}) }, machine, this.#hurry.signal);
      recovered++;
    }
    return recovered;
  }

  /** od starting: retry the remote clean-ups an earlier od process (or this one) could not finish. */
  resumeRemoteCleanups(): void {
    this.#cleanups.resume();
  }

  /**
   * Validate and start a run; resolves once it is queued (the agent starts in the background). An isolated run (or a
   * later run of an isolated conversation) works in the conversation's worktree, made here for its first run: from
   * `grouping.base` when given (a run group's common base), else from the checkout as it is.
   */
  async create(request: CreateRunRequest, grouping: { groupId?: string; base?: WorktreeBase } = {}): Promise<CreatedRun> {
    // The run machinery (attempts, parsers, staging) loads with the first run, while this one is checked and recorded.
    const execution = import("./run-execution.ts");
    await this.#creations.next();
    if (this.#shuttingDown) throw new OdError("unavailable", "UPSTREAM_UNAVAILABLE", "od is shutting down");
    if (!this.#space.available()) throw new OdError("storage_full", "DISK_FULL", DISK_FULL_MESSAGE);
    const { store } = this.deps;
    const project = store.projects.get(request.projectId);
    if (!project) throw new OdError("not_found", "PROJECT_NOT_FOUND", `no project ${request.projectId}`);
    // Where the run works; on another machine or in a container, what detection found there decides.
    const machinePlace = this.#placeOf(project.path);
    const placeDeps = { env: this.deps.env, machineEnv: store.appConfig.get().machineEnv?.[machinePlace.machine.key] ?? {}, resolveLaunch: (def: RuntimeAgentDef) => (this.deps.resolveLaunch ?? ((d) => this.#defaultLaunch(d)))(def) };
    const plan = this.#workplaces.plan(request, machinePlace, placeDeps);
    const { def, detected, model, reasoning, permissionMode } = await this.#agentChoice.choose(request, project.id, machinePlace.machine);

    if (request.conversationId) {
      const conversation = store.conversations.get(request.conversationId);
      if (!conversation || conversation.projectId !== project.id) {
        throw new OdError("not_found", "CONVERSATION_NOT_FOUND", `no conversation ${request.conversationId} in this project`);
      }
      this.recoverInterruptedRuns({ conversationId: request.conversationId });
    }

    const runId = newId("run");
    // A new isolated conversation's worktree is made before its records: a folder outside git is refused first.
    const workplace = await this.#workplaces.settle(plan, project, runId, grouping.base);
    const { place, worktree, made } = workplace;
    // One transaction: a run's records exist together or not at all (one commit, not five), and two od processes
    // cannot both start a run in one conversation between the check and the insert.
    let records;
    try {
      records = this.#records.storingNew(() => store.transaction(() => {
        if (request.conversationId && store.runs.list({ conversationId: request.conversationId, status: "active" }).length) {
          throw new OdError("conflict", "RUN_IN_PROGRESS", "this conversation already has a run in progress; cancel it or wait");
        }
        const conversationId = request.conversationId ?? store.conversations.create(project.id, titleFrom(request.message)).id;
        if (made) store.worktrees.add({ conversationId, projectId: project.id, ...made });
        const earlier = request.conversationId ? store.messages.summary(conversationId) : undefined; // a new one has none
        store.runs.create({ id: runId, projectId: project.id, conversationId, agentId: def.id, model, reasoning, owner: ownProcessIdentity(), isolation: worktree ? "worktree" : "none", ...(grouping.groupId ? { groupId: grouping.groupId } : {}) });
        const asked = store.messages.add({ conversationId, role: "user", text: request.message });
        const assistantMessageId = store.messages.add({ conversationId, role: "assistant", text: "", runId, agentId: def.id, startedAt: Date.now() });
        store.conversations.touch(conversationId);
        return { conversationId, history: historyBefore(store.messages, conversationId, asked, earlier), assistantMessageId };
      }));
    } catch (error) {
      await this.#workplaces.abandon(workplace, project, plan);
      throw error;
    }
    const { conversationId, history, assistantMessageId } = records;

    const log = new RunEventLog(runId, store.runs, { newRun: true, countText: this.#countText, onStoreError: (error) => this.#storeFailed(live, error) });
    const live: LiveRun = { id: runId, log, abort: new AbortController(), done: Promise.resolve() };
    this.#live.set(runId, live);
    this.#started++;
    live.done = execution.then(({ executeRun }) => executeRun(this.#execution, live, { def, project, place, conversationId, assistantMessageId, request, model, reasoning, permissionMode, history, detected }))
      .catch((error) => this.#crash(live, error))
      .finally(async () => {
        live.approvals?.close();
        await Promise.resolve(live.cleanup?.()).catch(() => undefined);
        live.output?.close();
        this.#live.delete(runId);
        this.deps.afterRun?.();
      });
    return { runId, conversationId, ...(worktree ? { base: { commit: worktree.base, carriedPaths: worktree.carriedPaths } } : {}) };
  }

  /**
   * What `create` would refuse of the agent, model, reasoning and permission mode of `request`, refused the same way
   * (a run group checks every member before it starts any).
   */
  async check(request: CreateRunRequest): Promise<void> {
    const project = this.deps.store.projects.get(request.projectId);
    if (!project) throw new OdError("not_found", "PROJECT_NOT_FOUND", `no project ${request.projectId}`);
    await this.#agentChoice.choose(request, project.id, this.#placeOf(project.path).machine);
  }

  /** A run's summary; a live run's lists the approval requests waiting for an answer. */
  get(runId: string): RunSummary | undefined {
    const summary = this.deps.store.runs.get(runId);
    const approvals = this.#live.get(runId)?.approvals;
    return summary && approvals ? { ...summary, pendingApprovals: approvals.pending() } : summary;
  }

  /** A person's answer to one approval request of a live run (`unknown` also when the run is not live). */
  answerApproval(runId: string, approvalId: string, decision: ApprovalDecision, message?: string, answers?: QuestionAnswers): AnswerResult {
    return this.#live.get(runId)?.approvals?.answer(approvalId, decision, message, answers) ?? "unknown";
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
   * `history` as the JSON of its events. A finished run's events never change: its history is worked out at its first
   * read and kept with the run, so a later open (a reload, the conversation opened again, after a restart) reads one
   * value instead of every event. Keeping it is a cache: when it cannot be written (a full disk), it is worked out again
   * next time.
   */
  async historyJson(runId: string): Promise<string> {
    const runs = this.deps.store.runs;
    const stored = this.#live.has(runId) ? undefined : runs.storedHistory(runId);
    if (stored !== undefined) return stored;
    const json = JSON.stringify(await this.history(runId));
    // Not on a disk that is full (or was, until a run is allowed again): its room is for runs' events.
    if (!this.#live.has(runId)) keepWhileRoom(this.#space, () => runs.storeHistory(runId, json));
    return json;
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

  /** How many runs this service has started (the daemon keeps start-up's code once one has: platform/memory.ts). */
  get startedCount(): number {
    return this.#started;
  }

  /** The machine a project path is on, and its folder there. */
  #placeOf(projectPath: string): MachinePlace {
    return placeOf(projectPath, this.#remote);
  }

  #defaultLaunch(def: RuntimeAgentDef): AgentLaunch | undefined {
    const resolved = resolveAgentLaunch(def, { env: this.deps.env, platform: this.#platform });
    return resolved.ok ? resolved.launch : undefined;
  }

  /** A bug of ours must still end the run, observably: its end, its record and its message (recovery.ts). */
  #crash(live: LiveRun, error: unknown): void {
    if (isDiskFull(error)) this.#storeFailed(live, error);
    endCrashedRun(this.deps.store, this.#records, live, error);
  }

  /** A write of `live`'s failed: stop the run, which then ends failed with the failure (see `finish`). */
  #storeFailed(live: LiveRun, error: unknown): void {
    if (live.storeFailure !== undefined) return;
    live.storeFailure = error;
    live.log.holdUntilEnd();
    live.output?.abandon();
    if (isDiskFull(error)) this.#space.exhausted();
    live.abort.abort();
  }
}

function titleFrom(message: string): string {
  const line = message.trim().split("\n")[0] ?? "";
  return line.length > 60 ? `${line.slice(0, 57)}…` : line || "New conversation";
}
