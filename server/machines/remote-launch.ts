/**
 * Starting an agent on a remote location: the local ssh/docker client argv that starts a shell there, the framing
 * that runs LAUNCH_SCRIPT in it with the agent's argv and environment (over the client's stdin), the cookie sweep
 * that ends whatever of the run is still running there, and how a client's exit reads (the connection broke, the
 * folder or CLI is missing).
 */
import { RUN_COOKIE_VAR } from "./run-cookie.ts";
import { describeLocation, type RemoteLocation } from "./machine-url.ts";
import { clientEnv, isTransportFailure, reachLocation, remoteArgvOptions, runRemoteScript, type RemoteContext } from "./remote-exec.ts";
import { LAUNCH_SCRIPT, SWEEP_SCRIPT } from "./remote-scripts.ts";
import { FRAMING_CUT_EXIT, scriptFraming } from "./script-framing.ts";
import { remoteShellArgv } from "./transport-argv.ts";
import { plainLine, transportWhy } from "./transport-why.ts";

/** Exit codes of LAUNCH_SCRIPT (and of the shell when the CLI is missing there). */
const NO_FOLDER = 96;
const COMMAND_NOT_FOUND = 127;
/** docker exec's answer for a container that was removed (a paused or stopped one says otherwise). */
const NO_SUCH_CONTAINER = /No such container/i;

/** Everything an attempt needs to run one agent argv on a remote location instead of here. */
export type RemoteLaunch = {
  location: RemoteLocation;
  /** The local client's argv (ssh … / docker exec -i …). */
  argv: string[];
  /** The local client's environment (ours: ssh-agent, OD_SSH_CONFIG; never the agent's secrets). */
  env: Record<string, string | undefined>;
  /** Written to the client's stdin before anything else: LAUNCH_SCRIPT, the agent's argv and environment. */
  preamble: string;
  /**
   * End every process of the run still on the remote side: the remote pids it signalled, or — when the location did
   * not answer in time — that this clean-up goes on after the attempt (the run service's remote clean-up owns it).
   */
  sweep(graceMs: number): Promise<RunSweep>;
  /**
   * For a client that failed without a reason of its own (docker exec ends 137 when its container is removed):
   * the connection-lost failure when the location no longer answers, else undefined. Never throws.
   */
  lostSince(exit: { code: number | null; signal: string | null }, weStopped: boolean): Promise<MachineFailure | undefined>;
};

/** Why a finished client means the run failed on its machine, or undefined when the agent itself exited. */
export type MachineFailure = { code: string; detail: string; reason: string };

/** A run's sweep as its attempt sees it: done (the pids it signalled), or still going on since `since` (why). */
export type RunSweep = { kind: "swept"; pids: number[] } | { kind: "pending"; since: number; why: string };

/** One sweep of the remote side: what it signalled, or why the location did not answer. */
export type SweepResult = { kind: "swept"; pids: number[] } | { kind: "unreached"; why: string };

/** `sweep` is the run's sweep there (`RemoteCleanups.sweepAfterRun`), which remembers one that cannot finish. */
export function remoteLaunch(location: RemoteLocation, agentArgv: readonly string[], agentEnv: Record<string, string>, context: RemoteContext, sweep: (runId: string, graceMs: number) => Promise<RunSweep>): RemoteLaunch {
  const runId = agentEnv[RUN_COOKIE_VAR];
  return {
    location,
    argv: remoteShellArgv(location, remoteArgvOptions(context)),
    env: clientEnv(context.env),
    // The agent's own stdin (a prompt, protocol frames) may follow it.
    preamble: scriptFraming(LAUNCH_SCRIPT, [location.path, ...agentArgv], { env: agentEnv, payloadFollows: true }),
    sweep: (graceMs) => (runId ? sweep(runId, graceMs) : Promise.resolve({ kind: "swept", pids: [] })),
    lostSince: async (exit, weStopped) => {
      if (weStopped || exit.code === 0) return undefined;
      const reach = await reachLocation(location, context);
      return reach.reached ? undefined : connectionLost(location, lastPlainLine(reach.why));
    },
  };
}

/** How long a sweep waits for the location by default: the grace, then this for the connection and the KILL rounds. */
export const SWEEP_SLACK_MS = 30_000;

/**
 * SIGTERM, then SIGKILL after the grace, to every remote process carrying the run cookie; given up after `timeoutMs`
 * (default: the grace plus `SWEEP_SLACK_MS`); `onStarted` is called once the sweep runs there. Never throws: a
 * location that did not answer is a result.
 */
export async function sweepRemoteRun(location: RemoteLocation, runId: string, graceMs: number, context: RemoteContext, timeoutMs = graceMs + SWEEP_SLACK_MS, onStarted?: () => void): Promise<SweepResult> {
  const tenths = String(Math.max(1, Math.ceil(graceMs / 100)));
  const result = await runRemoteScript(location, SWEEP_SCRIPT, [`${RUN_COOKIE_VAR}=${runId}`, tenths], context, { timeoutMs, ...(onStarted ? { onStarted } : {}) });
  if (result.kind === "timeout") return { kind: "unreached", why: `no answer within ${Math.round(timeoutMs / 100) / 10} s` };
  // A container that no longer exists has nothing of the run left running in it.
  if (result.kind === "unreachable" && location.kind === "docker" && NO_SUCH_CONTAINER.test(result.stderr)) return { kind: "swept", pids: [] };
  if (result.kind === "unreachable") return { kind: "unreached", why: lastPlainLine(result.stderr) || "unreachable" };
  // SWEEP_SCRIPT itself always exits 0: anything else is the shell there failing, and the sweep did not happen.
  if (result.code !== 0) return { kind: "unreached", why: lastPlainLine(result.stderr) || `the sweep exited ${result.code}` };
  const pids = new TextDecoder().decode(result.stdout).split(/\s+/).filter((word) => /^\d+$/.test(word)).map(Number);
  return { kind: "swept", pids: [...new Set(pids)].sort((a, b) => a - b) };
}

/**
 * Reads a finished client's exit: the transport broke, the folder or CLI is missing there, or nothing of ours. A
 * broken transport's reason comes from the transport (its own lines in `stderr`, or how the client ended), never
 * from the agent's stderr, which shares the client's.
 */
export function remoteFailure(location: RemoteLocation, bin: string, exit: { code: number | null; signal: string | null }, stderr: string, weStopped: boolean): MachineFailure | undefined {
  const where = describeLocation(location);
  if (!weStopped && exit.code === FRAMING_CUT_EXIT) return connectionLost(location, "the run's script and environment never arrived there whole");
  if (!weStopped && (isTransportFailure(location, exit.code, stderr) || (exit.signal !== null && exit.code === null))) {
    return connectionLost(location, transportWhy(location, exit, stderr));
  }
  if (exit.code === NO_FOLDER) return { code: "INVALID_PROJECT_PATH", detail: "remote_folder_missing", reason: `the project folder is missing on ${where}` };
  if (exit.code === COMMAND_NOT_FOUND) return { code: "AGENT_NOT_INSTALLED", detail: "cli_not_installed", reason: `${bin} is not installed on ${where} (or not on its PATH)` };
  return undefined;
}

function connectionLost(location: RemoteLocation, why: string): MachineFailure {
  return { code: "REMOTE_CONNECTION_LOST", detail: "remote_connection_lost", reason: `the connection to ${describeLocation(location)} was lost${why ? ` (${why})` : ""}` };
}

/** The last line of a client's stderr, without its terminal escapes (ssh's and docker's own words come last). */
function lastPlainLine(stderr: string): string {
  return plainLine(stderr.trim().split("\n").at(-1) ?? "");
}
