/**
 * One attempt of a run: spawn the agent in its own process group, deliver the prompt, turn its output into
 * RunEvents, watch for silence, and — on every exit path — make sure nothing of it is left running.
 * The whole lifetime of the child lives inside `runAttempt` and its `finally`.
 */
import type { AgentEvent } from "../contracts/events.ts";
import type { NewRunEvent } from "../contracts/runs.ts";
import { spawnChild, SpawnError, type ChildExit, type ChildHandle } from "../platform/process.ts";
import type { Invocation } from "../runtimes/invocation.ts";
import type { ProtocolResult, ProtocolSession, TransportOptions } from "../runtimes/protocols/types.ts";
import { readStreamEventBatches } from "../runtimes/streams/read-events.ts";
import { stopProcessTree } from "./cancel-ladder.ts";
import { readPidAllocationMark } from "../machines/pid-allocation.ts";
import type { AgentStart, MachineFailure } from "../machines/machine.ts";
import { startProtocol } from "./protocols.ts";
import type { AskApproval } from "../runtimes/approval-channel.ts";
import { claudeControlAnswerer } from "./stream-approvals.ts";
import { readingShare, readWithTurns } from "./stdout-turns.ts";
import { TextBuffer } from "./text-buffer.ts";
import { ToolCallLedger } from "./tool-call-ledger.ts";
import { Watchdog, type WatchdogTimeouts } from "./watchdog.ts";
import { perEvent } from "../platform/jit-tiers.ts";

export type AttemptInput = {
  runId: string;
  /** The agent's folder on its machine. */
  cwd: string;
  /** How the agent is started on its machine (machines/machine.ts): here, or through ssh or docker exec. */
  start: AgentStart;
  /** The machine in words, for a lost connection's reason. */
  machineLabel?: string;
  invocation: Invocation;
  /** For protocol readers: everything the transport needs besides the pipes. */
  transportOptions: Omit<TransportOptions, "respawn"> & { requestId?: string };
  timeouts: WatchdogTimeouts & { cancelGraceMs: number };
  /** Abort = cancel requested (user, shutdown). */
  signal: AbortSignal;
  /** Abort = stop faster: the cancel ladder skips its grace waits, never its steps (a second Ctrl-C). */
  hurry?: AbortSignal;
  emit(event: NewRunEvent): void;
  onSpawn(pid: number): void;
  /**
   * Collect the attempt's visible text into `outcome.text` (the connection test's short reply). Off for runs: their
   * text can be any size, and they stream it where it goes (the folded answer, the artifact spool).
   */
  collectText?: boolean;
  /**
   * Set for runs in `ask` or `read-only` mode: the agent's permission questions go here (a protocol transport's
   * requests, a stream-json CLI's control requests). While one waits for a person, the silence watch is paused.
   */
  askApproval?: AskApproval;
};

export type AttemptOutcome = {
  exit: ChildExit | null;
  spawnError?: SpawnError;
  /** The agent produced something a person would see (text, thinking, a tool call). */
  sawOutput: boolean;
  /** Native session handle reported during the attempt. */
  sessionId?: string;
  protocolResult?: ProtocolResult;
  /** In-stream errors, in order (the last terminal one decides the failure). */
  errors: { message: string; code?: string; terminal?: boolean }[];
  stderrTail: string;
  /** All visible text when `collectText` was asked for; empty otherwise. */
  text: string;
  timedOut?: "first_output" | "inactivity";
  canceled: boolean;
  /** Paths named by file-writing tool calls. */
  toolPaths: string[];
  /** The attempt's tool calls and which failed (a succeeded run whose calls mostly failed says so). */
  toolCalls?: ToolCallLedger;
  /** Processes the sweep had to kill after the group was gone (on the remote side too, for remote runs). */
  strays: number[];
  /** The run's machine failed it (the connection to it was lost, the folder or the CLI is missing there). */
  machineFailure?: MachineFailure;
  /** The run's sweep did not reach its machine in time: its clean-up goes on after the attempt, since then. */
  cleanupPending?: { since: number; why: string };
};

const STDERR_TAIL_BYTES = 8 * 1024;
const STDOUT_DRAIN_MS = 1500;
/**
 * How long a protocol client whose session has finished (its result in, its stdin closed by the transport) is given to
 * exit by itself before it is stopped, at most the cancel grace. The ACP adapters (claude-code-acp, codex-acp) and pi
 * rpc stay up after their turn with their stdin closed: with the cancel grace and the session's cancel steps of the
 * stop ladder, each of their runs ended 5.5 s after its answer. A client that exits on EOF (codex app-server) is gone
 * well within this; one that is still up has nothing left to do for the run and is asked to stop with SIGTERM.
 */
const FINISHED_SESSION_EXIT_MS = 1000;
/** How long a remote client's stderr is still read once its host did not answer the run's sweep. */
const UNANSWERED_STDERR_MS = 100;
const MAX_STDERR_EVENTS_BYTES = 1024 * 1024;
/** Events of one chunk handled before the run takes its share of the loop again (readingShare): a 64 KiB chunk holds ~500. */
const EVENTS_PER_SHARE = 64;
const SUBSTANTIVE: ReadonlySet<AgentEvent["type"]> = new Set(["text_delta", "thinking_delta", "thinking_start", "tool_use", "tool_input_delta", "artifact"]);

/** Write further user messages into a running stream-json child. */
export type MidTurnInput = { send(line: string): Promise<boolean> };

export async function runAttempt(input: AttemptInput, registerInput?: (input: MidTurnInput | undefined) => void): Promise<AttemptOutcome> {
  const outcome: AttemptOutcome = { exit: null, sawOutput: false, errors: [], stderrTail: "", text: "", canceled: false, toolPaths: [], strays: [], toolCalls: new ToolCallLedger() };
  const { invocation, start } = input;
  const wantsStdin = invocation.delivery.kind !== "argv";

  // Before the spawn: every process the agent starts here gets a pid after these counters (the end-of-run sweep's scope).
  const spawnMark = start.cookieHere ? readPidAllocationMark() : undefined;
  let child: ChildHandle;
  try {
    child = await spawnChild({ ...start.spawn, ownProcessGroup: true });
  } catch (error) {
    if (error instanceof SpawnError) {
      outcome.spawnError = error;
      return outcome;
    }
    throw error;
  }

  let session: ProtocolSession | undefined;
  /** The session's result is in: nothing is left to cancel, its client is only waited for (or stopped). */
  let sessionFinished = false;
  let stopping: Promise<void> | undefined;
  /** The client was still running when od began stopping it: its exit says nothing about the connection. */
  let stoppedEarly = false;
  let exitedAlone = false;
  void child.exited.then(() => (exitedAlone = !stopping));
  const stop = (reason: "cancel" | "first_output" | "inactivity" | "lost" | "done") => {
    if (!stopping && !exitedAlone) stoppedEarly = true;
    if (reason === "cancel") outcome.canceled = true;
    else if (reason === "first_output" || reason === "inactivity") outcome.timedOut ??= reason;
    return (stopping ??= stopProcessTree({
      child,
      ...(sessionFinished ? {} : { session }),
      // Only a cookie of this machine's process table is swept here; elsewhere the run's sweep runs there (below),
      // never from outside, where a container's processes (or a host that is this machine) would be swept wrongly.
      ...(start.cookieHere ? { cookie: start.cookieHere } : {}),
      ...(spawnMark ? { spawnMark } : {}),
      graceMs: input.timeouts.cancelGraceMs,
      ...(input.hurry ? { hurry: input.hurry } : {}),
    })
      .then(async (strays) => {
        outcome.strays.push(...strays);
        const swept = await start.sweep(input.timeouts.cancelGraceMs);
        if (swept.kind === "swept") outcome.strays.push(...swept.pids);
        else outcome.cleanupPending = { since: swept.since, why: swept.why };
      }));
  };

  try {
    input.onSpawn(child.pid);
  } catch (error) {
    // od could not record that the agent runs (a full disk): the run ends on that error, and the agent with it, not
    // working on in the project unrecorded.
    await stop("done");
    throw error;
  }
  if (start.preamble !== undefined) {
    // The agent's environment, secrets included, on stdin: it appears in no command line here or there.
    await child.stdin!.write(start.preamble).catch(() => undefined);
    if (!wantsStdin) child.stdin!.end();
  }

  const watchdog = new Watchdog(input.timeouts, (which) => {
    input.emit({ type: "diagnostic", kind: "watchdog", message: which === "first_output" ? "no output from the agent in time; stopping it" : "the agent went silent; stopping it" });
    void stop(which);
  });
  const onAbort = () => void stop("cancel");
  // A machine that stops answering while its client waits (a paused container) ends the attempt as a lost connection.
  const stopWatching = start.watch((why) => {
    outcome.machineFailure ??= { code: "REMOTE_CONNECTION_LOST", detail: "remote_connection_lost", reason: `the connection to ${input.machineLabel ?? "the machine"} was lost (${why})` };
    void stop("lost");
  });
  input.signal.addEventListener("abort", onAbort, { once: true });
  if (input.signal.aborted) onAbort();

  const askApproval: AskApproval | undefined = input.askApproval && ((question) => {
    watchdog.hold();
    return input.askApproval!(question).finally(() => watchdog.release());
  });
  const streamJsonDelivery = invocation.delivery.kind === "stdin-stream-json";
  const answerControl = askApproval && streamJsonDelivery
    ? claudeControlAnswerer(askApproval, (line) => (child.stdin!.closed ? Promise.resolve() : child.stdin!.write(line + "\n")), input.cwd)
    : undefined;

  const text = input.collectText ? new TextBuffer() : undefined;
  const handleEvent = (event: AgentEvent) => {
    if (event.type === "raw" && answerControl?.(event.line)) return;
    if (SUBSTANTIVE.has(event.type)) {
      outcome.sawOutput = true;
      watchdog.sawOutput();
    }
    if (event.type === "text_delta") text?.append(event.delta);
    if (event.type === "status" && event.sessionId) outcome.sessionId = event.sessionId;
    if (event.type === "error") outcome.errors.push({ message: event.message, code: event.code, terminal: event.terminal });
    if (event.type === "tool_use" && event.path && (event.kind === "file_write" || event.kind === "file_edit")) outcome.toolPaths.push(event.path);
    outcome.toolCalls?.push(event);
    input.emit({ type: "agent", event });
  };
  perEvent(handleEvent);

  /** Whether the attempt still relays stderr: after it returns, nothing more of it is a run event. */
  let stderrOpen = true;
  const stderrDone = pumpStderr(child.stderr, input, outcome, () => watchdog.activity(), () => stderrOpen);
  // A tool shell in its own session can inherit stdout and hold it open after the agent exits: once the agent
  // is gone, give its output a moment to drain, then sweep whatever still carries the run's cookie.
  let drainTimer: ReturnType<typeof setTimeout> | undefined;
  void child.exited.then(() => {
    drainTimer = setTimeout(() => void stop("done"), STDOUT_DRAIN_MS);
  });
  const activeStdout = readWithTurns(child.stdout, () => watchdog.activity());
  try {
    if (invocation.reader.kind === "protocol") {
      session = await startProtocol(invocation.reader.format, { stdin: child.stdin!, stdout: activeStdout }, { ...input.transportOptions, ...(askApproval ? { askApproval } : {}) });
      for await (const event of session.events) handleEvent(event);
      outcome.protocolResult = await session.result;
      sessionFinished = true;
      if (outcome.protocolResult.sessionId) outcome.sessionId = outcome.protocolResult.sessionId;
    } else {
      const streamJson = invocation.delivery.kind === "stdin-stream-json";
      if (invocation.delivery.kind === "stdin-text") {
        await child.stdin!.write(invocation.delivery.text).catch(() => undefined);
        child.stdin!.end();
      } else if (streamJson && invocation.delivery.kind === "stdin-stream-json") {
        await child.stdin!.write(invocation.delivery.line + "\n").catch(() => undefined);
        registerInput?.({ send: async (line) => (child.stdin!.closed ? false : child.stdin!.write(line + "\n").then(() => true, () => false)) });
      }
      const { streamFormat, eventParser } = invocation.reader;
      for await (const batch of readStreamEventBatches(activeStdout, streamFormat, eventParser, { cwd: input.cwd })) {
        let handled = 0;
        for (const event of batch) {
          if (++handled % EVENTS_PER_SHARE === 0) await readingShare.take();
          handleEvent(event);
          // stream-json input stays open for mid-turn messages until the main turn ends cleanly.
          if (streamJson && isCleanTurnEnd(event)) {
            registerInput?.(undefined);
            child.stdin?.end();
          }
        }
      }
    }
    // stdout ended, or the session finished, but the process may linger (the ACP adapters and pi rpc stay up after
    // their turn): after the grace, stop it.
    const exitGraceMs = sessionFinished ? Math.min(FINISHED_SESSION_EXIT_MS, input.timeouts.cancelGraceMs) : input.timeouts.cancelGraceMs;
    const lingering = setTimeout(() => void stop("done"), exitGraceMs);
    outcome.exit = await child.exited;
    clearTimeout(lingering);
  } finally {
    clearTimeout(drainTimer);
    registerInput?.(undefined);
    watchdog.dispose();
    stopWatching();
    input.signal.removeEventListener("abort", onAbort);
    await stop("done");
    outcome.exit ??= await child.exited;
    // ssh hands a client's pipes to the host's shared connection, which holds them until the host ends the session:
    // never, while it does not answer. What is already in the pipe is read; its end is not waited for.
    if (outcome.cleanupPending) await Promise.race([stderrDone, new Promise((resolve) => setTimeout(resolve, UNANSWERED_STDERR_MS))]);
    else await stderrDone;
    stderrOpen = false;
    if (outcome.exit) {
      const weStopped = outcome.canceled || outcome.timedOut !== undefined || stoppedEarly;
      const failure = await start.failure(outcome.exit, outcome.stderrTail, weStopped);
      if (failure) outcome.machineFailure ??= failure;
    }
    outcome.text = text?.toString() ?? "";
  }
  return outcome;
}

/** Plain streams have no structured artifacts: they are extracted from the attempt's whole text afterwards. */
export function extractsArtifacts(reader: Invocation["reader"]): boolean {
  return reader.kind === "lines" && reader.streamFormat === "plain";
}

/** A finished turn: claude's terminal turn_end (not a tool pause) or its final result usage. */
function isCleanTurnEnd(event: AgentEvent): boolean {
  return (event.type === "turn_end" && event.stopReason !== "tool_use") || event.type === "usage";
}
perEvent(isCleanTurnEnd);

async function pumpStderr(source: AsyncIterable<Uint8Array>, input: AttemptInput, outcome: AttemptOutcome, onChunk: () => void, open: () => boolean): Promise<void> {
  const decoder = new TextDecoder();
  let emitted = 0;
  try {
    for await (const chunk of source) {
      if (!open()) break;
      onChunk();
      const text = decoder.decode(chunk, { stream: true });
      outcome.stderrTail = (outcome.stderrTail + text).slice(-STDERR_TAIL_BYTES);
      if (emitted < MAX_STDERR_EVENTS_BYTES) {
        const part = text.slice(0, MAX_STDERR_EVENTS_BYTES - emitted);
        emitted += part.length;
        input.emit({ type: "stderr", chunk: part });
      }
    }
  } catch {
    // The pipe broke with the process; what we have is what there is.
  }
}
