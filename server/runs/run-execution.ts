/**
 * One run from its start to its end: where it works, its inputs, its attempts (a second one when a saved session is
 * gone), and the finish that records what it changed, appends `end` and stores the folded answer. Whatever happens,
 * the run ends: a refusal, a failed attempt or a store failure is an ending like any other.
 */
import type { NewRunEvent } from "../contracts/runs.ts";
import { createRunInputs, type RunInputNote, type RunInputsProvider } from "../inputs/run-inputs.ts";
import type { RemoteCleanups } from "../machines/remote-cleanups.ts";
import { collectGarbage } from "../platform/memory.ts";
import { buildInvocation, readerFor, type Invocation } from "../runtimes/invocation.ts";
import { launchArgv } from "../runtimes/launch.ts";
import { checkPromptArgvBudget, checkWindowsCmdShimCommandLineBudget, checkWindowsDirectExeCommandLineBudget } from "../runtimes/prompt-budget.ts";
import { ArtifactSpool } from "../runtimes/streams/artifacts.ts";
import { resolveDefTransport, type EnvMap, type RuntimeAgentDef } from "../runtimes/types.ts";
import type { Store } from "../store/store.ts";
import { DEFAULT_APPROVAL_TIMEOUT_MS } from "../contracts/approval-values.ts";
import { RunApprovals } from "./approvals.ts";
import { extractsArtifacts, runAttempt, type AttemptOutcome } from "./attempt.ts";
import { endEvent, warningEvents } from "./end-event.ts";
import { EventFolder } from "./fold.ts";
import { MessageTextPieces } from "./text-pieces.ts";
import type { TextMeter } from "./garbage-pacer.ts";
import type { LiveRun, RunFinisher, RunPlan } from "./live-run.ts";
import { judgeAttempt, looksLikeStaleSession, type RunEnding } from "./outcome.ts";
import { RunOutputFile } from "./output-file.ts";
import { composePrompt } from "./prompt.ts";
import type { RunRecords } from "./run-records.ts";
import { storeFailureEnding } from "./store-failures.ts";
import { eventsWithRunReason } from "./stored-reason.ts";
import type { RunTimeouts } from "./timeouts.ts";
import { transportFacts } from "./transport-facts.ts";
import { UsageTally } from "./usage-tally.ts";
import { perEvent } from "../platform/jit-tiers.ts";

/** Characters of a run's answer kept in its message when the disk has no room for all of it. */
const ANSWER_TAIL_WHEN_FULL = 64_000;

/** A folded answer holding at least this much (characters, in memory) is written after a garbage collection (see `finish`). */
export const LARGE_FOLD_CHARS = 1_000_000;

/**
 * Once this much event text (characters of JSON, all runs of the process together) has been logged since the last
 * such collection, a run's answer is written after one too, however small the answer: the heap then holds the
 * streams' promoted garbage, about as much as JavaScriptCore lets it grow before it collects by itself (see `finish`).
 */
export const LOGGED_CHARS_BEFORE_ANSWER_GC = 4_000_000;

/** What a run's execution needs of the run service that owns it. */
export type ExecutionEnv = {
  deps: {
    store: Store;
    env: EnvMap;
    outputDir?: string;
    inputs?: RunInputsProvider;
    trustProjectMcp?: boolean;
    collectGarbage?: () => void;
  };
  timeouts: RunTimeouts;
  platform: NodeJS.Platform;
  /** Aborted when od is asked to stop faster: cancel ladders skip their grace waits. */
  hurry: AbortSignal;
  countForJit: () => void;
  loggedText: TextMeter;
  records: RunRecords;
  cleanups: RemoteCleanups;
  /** A write of the run's failed: the run is stopped and ends failed with it. */
  storeFailed(live: LiveRun, error: unknown): void;
};
export async function executeRun(env: ExecutionEnv, live: LiveRun, run: RunPlan): Promise<void> {
  const { store } = env.deps;
  const { def, project, conversationId } = run;
  const started = Date.now();
  if (env.deps.outputDir) live.output = new RunOutputFile(env.deps.outputDir, live.id, (error) => env.storeFailed(live, error));
  // The answer's long parts go to its message as they grow (text-pieces.ts) while the run's writes succeed; one that
  // cannot be stored stops the run.
  const pieces = new MessageTextPieces(
    store.messages,
    run.assistantMessageId,
    (error) => env.storeFailed(live, error),
    () => live.storeFailure !== undefined,
  );
  const folder = new EventFolder({ spill: live.output, pieces });
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
    env.countForJit();
  };
  perEvent(emit);
  if (run.permissionMode !== "bypass") {
    const timeoutMs = store.appConfig.get().approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
    live.approvals = new RunApprovals({ mode: run.permissionMode, timeoutMs, emit: (event) => emit({ type: "agent", event }) });
  }
  // The project's machine and folder: the agent runs there (here, or through ssh or docker exec).
  const { place } = run;
  const { machine, folder: workDir } = place;
  // What the run changes in its folder (git's view in a work tree, a bounded walk elsewhere), kept with diffs.
  const changes = await place.changes((message) => emit({ type: "diagnostic", kind: "remote_changes", message }));
  for (const notice of place.earlierCleanupNotices(() => store.runs.list({ conversationId }), live.id)) emit(notice);
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
    env.records.storingLast(() => store.runChanges.save(live.id, changes.source, changed));
    // Only files that exist after the run are listed; a machine that did not answer cannot be asked.
    const note = (message: string) => emit({ type: "diagnostic", kind: "remote_files", message });
    if (unanswered && files.size) note("the project's machine did not answer, so which of the run's files exist there could not be checked; none is listed");
    const produced = unanswered ? [] : await place.existingFiles(files, seenAfter, note);
    live.ended = { ending, exit, files: produced };
    live.log.append(endEvent(ending, exit, produced, started));
    env.records.storingLast(() => env.records.finish(live.id, ending, exit, produced, tally));
    live.output?.close();
    // Writing the folded answer makes a few brief copies of what it holds (its JSON, sqlite's binding and record;
    // not its long parts, already stored as pieces). After a long stream the heap is full of its garbage, and the
    // copies grew it further: an answer holding much (many tool results) is written after a collection (a
    // 3M-character answer held whole: peak RSS 120 MB instead of 104 MB), and so is any answer once the
    // process's runs together have logged much text since the last one (ten runs of 10k events each ending at
    // once: the daemon's peak over idle ~2 MB lower, its worst rounds 2–5 MB; see LOGGED_CHARS_BEFORE_ANSWER_GC).
    if (folder.heldChars >= LARGE_FOLD_CHARS || env.loggedText.chars >= LOGGED_CHARS_BEFORE_ANSWER_GC) {
      (env.deps.collectGarbage ?? collectGarbage)();
      env.loggedText.reset();
    }
    const endedAt = Date.now();
    env.records.storingLast(
      () => store.messages.complete(run.assistantMessageId, { events: eventsWithRunReason(folder.events, ending), endedAt, files: produced }),
      // No room for the whole answer: its end, which the reserve has room for (pieces it stored stay unnamed, deleted
      // with the message).
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
    reader = readerFor(resolveDefTransport(def, place.settingsEnv, run.permissionMode));
  } catch (error) {
    return failConfig(emit, finish, "UNSUPPORTED_STREAM_FORMAT", (error as Error).message);
  }
  const resumeStyle = nativeResumeStyle(def, reader);
  let handle = resumeStyle ? store.agentSessions.get(conversationId, def.id) : undefined;
  const agentFile = def.agentFile?.(run.permissionMode);
  // --- run inputs: skills, MCP servers, images (server/inputs/run-inputs.ts); problems are diagnostics ---
  // On a remote location they are staged there, in a folder of the run's that its cleanup removes.
  const wanted = {
    runId: live.id,
    def,
    message: run.request.message,
    skillIds: run.request.skillIds ?? [],
    attachments: run.request.attachments ?? [],
    note: ({ notice, ...note }: RunInputNote) => emit({ type: notice ? "notice" : "diagnostic", ...note }),
    // A project's own MCP servers start programs: only the list the person approved for this project (mcp/project-consent.ts).
    projectMcpConsent: (hash: string) => env.deps.trustProjectMcp === true || store.mcpConsents.get(project.id)?.serversHash === hash,
    ...(agentFile ? { agentFile } : {}),
  };
  const provider = env.deps.inputs ?? defaultInputs;
  const inputs = await place.prepareInputs(provider, { ...wanted, projectId: project.id });
  live.cleanup = inputs.cleanup;
  // Without its file the agent would act without asking: the run does not start.
  if (agentFile && !inputs.context.agentFilePath) {
    return failConfig(emit, finish, "AGENT_FILE_UNWRITABLE", `${def.name} needs ${agentFile.name} in the run's private folder on ${machine.label} to ask before it acts, and it could not be written there`);
  }
  const imagePaths = inputs.imagePaths;

  for (let attemptIndex = 0; attemptIndex < 2; attemptIndex++) {
    const useNative = Boolean(handle);
    const newSessionId = resumeStyle === "specify" && !handle ? crypto.randomUUID() : undefined;
    const prompt = composePrompt({ message: run.request.message, history: useNative ? [] : run.history.transcript(), includeTranscript: !useNative, systemPreamble: inputs.systemPreamble });

    const budget = def.maxPromptArgBytes ? checkPromptArgvBudget(def, prompt, env.platform) : null;
    if (budget) return failBudget(emit, finish, budget);

    if (def.promptViaFile && !inputs.promptFile) {
      return failConfig(emit, finish, "REMOTE_UNSUPPORTED", `${def.name} reads its prompt from a file, and no staging folder could be made for it on ${machine.label}`);
    }
    // In the run's private folder (a 0700 mkdtemp one here, a mktemp -d one there), removed when the run ends.
    let promptFilePath: string | undefined;
    try {
      promptFilePath = def.promptViaFile ? inputs.promptFile?.path(attemptIndex) : undefined;
    } catch (error) {
      return failConfig(emit, finish, "PROMPT_FILE_UNWRITABLE", `no private folder could be made for ${def.name}'s prompt file: ${(error as Error).message}`);
    }
    const context = {
      cwd: workDir,
      resumeSessionId: handle ?? null,
      ...(newSessionId ? { newSessionId } : {}),
      ...(promptFilePath ? { promptFilePath } : {}),
      capabilities: run.detected.capabilities(def.id),
      liveModels: run.detected.liveModels(def.id),
      platform: env.platform,
      env: place.settingsEnv,
      hasPriorAssistantTurn: run.history.answered,
      ...inputs.context,
    };
    let invocation: Invocation;
    try {
      invocation = buildInvocationFor(def, prompt, workDir, run, context, place.settingsEnv, imagePaths, inputs.extraAllowedDirs);
    } catch (error) {
      // Arg builders refuse combinations the CLI would reject (e.g. a reasoning level the model lacks).
      return failConfig(emit, finish, "INVALID_INVOCATION", (error as Error).message);
    }
    const argv = launchArgv(launch, invocation.args);
    const windowsBudget = def.maxPromptArgBytes && place.spawnsHere
      ? (checkWindowsCmdShimCommandLineBudget(launch.path, invocation.args, def) ?? checkWindowsDirectExeCommandLineBudget(launch.path, invocation.args, def))
      : null;
    if (windowsBudget) return failBudget(emit, finish, windowsBudget);

    emit({
      type: "start",
      runId: live.id,
      agentId: def.id,
      bin: launch.path,
      protocolVersion: 1,
      cwd: machine.projectPath(workDir),
      projectId: project.id,
      conversationId,
      model: run.model,
      reasoning: run.reasoning,
      attemptIndex,
      resume: useNative ? "native" : run.history.turns ? "transcript" : "new",
    });
    if (promptFilePath && inputs.promptFile) {
      try {
        await inputs.promptFile.write(promptFilePath, invocation.promptFileContent ?? prompt);
      } catch (error) {
        return failConfig(emit, finish, place.spawnsHere ? "PROMPT_FILE_UNWRITABLE" : "REMOTE_UNSUPPORTED", (error as Error).message);
      }
    }

    let outcome: AttemptOutcome;
    // Artifacts of plain streams are files od writes into the project, here or on the remote side.
    artifacts = extractsArtifacts(invocation.reader) ? new ArtifactSpool() : undefined;
    const agentEnv = { ...inputs.applyEnv(place.agentEnv(def, store.appConfig.get().agentCliEnv?.[def.id], live.id)), ...def.permissionEnv?.(run.permissionMode) };
    try {
      outcome = await runAttempt(
        {
          runId: live.id,
          cwd: workDir,
          machineLabel: machine.label,
          start: machine.startAgent(
            { folder: workDir, argv, env: agentEnv, runId: live.id, stdin: invocation.delivery.kind !== "argv" },
            env.cleanups.sweeperFor(machine),
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
            env: place.settingsEnv,
            // DSH scopes its frames by request id: the run id.
            requestId: live.id,
            permissionMode: run.permissionMode,
            machine,
          },
          timeouts: {
            firstOutputMs: env.timeouts.firstOutputMs(def),
            inactivityMs: env.timeouts.inactivityMs(def),
            cancelGraceMs: env.timeouts.cancelGraceMs,
          },
          signal: live.abort.signal,
          hurry: env.hurry,
          ...(live.approvals ? { askApproval: live.approvals.ask.bind(live.approvals) } : {}),
          emit,
          // The session the agent was told to start is kept once it runs, with its pid: one commit after the spawn,
          // none before it.
          onSpawn: (pid) =>
            store.transaction(() => {
              store.runs.markRunning(live.id, pid);
              if (newSessionId) store.agentSessions.set(conversationId, def.id, newSessionId);
            }),
        },
        (input) => {
          live.input = input;
        },
      );
      for (const path of outcome.toolPaths) if (place.holds(path)) files.add(path);
      if (outcome.cleanupPending) {
        unanswered = true;
        reportCleanupPending(live, emit, machine.label, outcome.cleanupPending);
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
function reportCleanupPending(live: LiveRun, emit: (e: NewRunEvent) => void, where: string, pending: { since: number; why: string }): void {
  emit({
    type: "diagnostic",
    kind: "cleanup_pending",
    message: `could not reach ${where} to end what is left of this run there (${pending.why}); od retries when ${where} answers again, and the run's summary says when it is done`,
    detail: { location: where, since: pending.since, why: pending.why },
  });
  live.cleanup = undefined;
}

function failConfig(emit: (e: NewRunEvent) => void, finish: RunFinisher, code: string, message: string): Promise<void> {
  emit({ type: "error", message, error: { code, message } });
  return finish({ status: "failed", failureCategory: "config", errorCode: code, reason: message }, { code: null, signal: null });
}

function failBudget(emit: (e: NewRunEvent) => void, finish: RunFinisher, budget: { code: string; message: string }): Promise<void> {
  emit({ type: "agent", event: { type: "error", message: budget.message, code: budget.code, terminal: true } });
  emit({ type: "error", message: budget.message, error: { code: budget.code, message: budget.message } });
  return finish({ status: "failed", failureCategory: "config", failureDetail: "prompt_too_large", errorCode: budget.code, reason: budget.message }, { code: null, signal: null });
}


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
