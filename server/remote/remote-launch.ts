/**
 * Starting an agent on a remote location: the local ssh/docker client argv that starts a shell there, the framing
 * that runs LAUNCH_SCRIPT in it with the agent's argv and environment (over the client's stdin), the cookie sweep
 * that ends whatever of the run is still running there, and how a client's exit reads (the connection broke, the
 * folder or CLI is missing).
 */
import { RUN_COOKIE_VAR } from "../runtimes/env.ts";
import { describeLocation, type RemoteLocation } from "./location.ts";
import { clientEnv, isTransportFailure, reachLocation, remoteArgvOptions, runRemoteScript, type RemoteContext } from "./remote-exec.ts";
import { LAUNCH_SCRIPT, SWEEP_SCRIPT } from "./remote-scripts.ts";
import { FRAMING_CUT_EXIT, scriptFraming } from "./script-framing.ts";
import { remoteShellArgv } from "./transport-argv.ts";
import { plainLine, transportWhy } from "./transport-why.ts";

/** Exit codes of LAUNCH_SCRIPT (and of the shell when the CLI is missing there). */
const NO_FOLDER = 96;
const COMMAND_NOT_FOUND = 127;

/** Everything an attempt needs to run one agent argv on a remote location instead of here. */
export type RemoteLaunch = {
  location: RemoteLocation;
  /** The local client's argv (ssh … / docker exec -i …). */
  argv: string[];
  /** The local client's environment (ours: ssh-agent, OD_SSH_CONFIG; never the agent's secrets). */
  env: Record<string, string | undefined>;
  /** Written to the client's stdin before anything else: LAUNCH_SCRIPT, the agent's argv and environment. */
  preamble: string;
  /** End every process of the run still on the remote side; resolves to the remote pids it signalled. */
  sweep(graceMs: number): Promise<number[]>;
  /**
   * For a client that failed without a reason of its own (docker exec ends 137 when its container is removed):
   * the connection-lost failure when the location no longer answers, else undefined. Never throws.
   */
  lostSince(exit: { code: number | null; signal: string | null }, weStopped: boolean): Promise<RemoteFailure | undefined>;
};

/** Why a finished client means the run failed on the remote side, or undefined when the agent itself exited. */
export type RemoteFailure = { code: string; detail: string; reason: string };

export function remoteLaunch(location: RemoteLocation, agentArgv: readonly string[], agentEnv: Record<string, string>, context: RemoteContext): RemoteLaunch {
  const runId = agentEnv[RUN_COOKIE_VAR];
  return {
    location,
    argv: remoteShellArgv(location, remoteArgvOptions(context)),
    env: clientEnv(context.env),
    // The agent's own stdin (a prompt, protocol frames) may follow it.
    preamble: scriptFraming(LAUNCH_SCRIPT, [location.path, ...agentArgv], { env: agentEnv, payloadFollows: true }),
    sweep: (graceMs) => (runId ? sweepRemoteRun(location, runId, graceMs, context) : Promise.resolve([])),
    lostSince: async (exit, weStopped) => {
      if (weStopped || exit.code === 0) return undefined;
      const reach = await reachLocation(location, context);
      return reach.reached ? undefined : connectionLost(location, plainLine(reach.why.trim().split("\n").at(-1) ?? ""));
    },
  };
}

/** SIGTERM, then SIGKILL after the grace, to every remote process carrying the run cookie. Never throws. */
export async function sweepRemoteRun(location: RemoteLocation, runId: string, graceMs: number, context: RemoteContext): Promise<number[]> {
  const tenths = String(Math.max(1, Math.ceil(graceMs / 100)));
  const result = await runRemoteScript(location, SWEEP_SCRIPT, [`${RUN_COOKIE_VAR}=${runId}`, tenths], context, { timeoutMs: graceMs + 30_000 });
  if (result.kind !== "exited") return [];
  const pids = new TextDecoder().decode(result.stdout).split(/\s+/).filter((word) => /^\d+$/.test(word)).map(Number);
  return [...new Set(pids)].sort((a, b) => a - b);
}

/**
 * Reads a finished client's exit: the transport broke, the folder or CLI is missing there, or nothing of ours. A
 * broken transport's reason comes from the transport (its own lines in `stderr`, or how the client ended), never
 * from the agent's stderr, which shares the client's.
 */
export function remoteFailure(location: RemoteLocation, bin: string, exit: { code: number | null; signal: string | null }, stderr: string, weStopped: boolean): RemoteFailure | undefined {
  const where = describeLocation(location);
  if (!weStopped && exit.code === FRAMING_CUT_EXIT) return connectionLost(location, "the run's script and environment never arrived there whole");
  if (!weStopped && (isTransportFailure(location, exit.code, stderr) || (exit.signal !== null && exit.code === null))) {
    return connectionLost(location, transportWhy(location, exit, stderr));
  }
  if (exit.code === NO_FOLDER) return { code: "INVALID_PROJECT_PATH", detail: "remote_folder_missing", reason: `the project folder is missing on ${where}` };
  if (exit.code === COMMAND_NOT_FOUND) return { code: "AGENT_NOT_INSTALLED", detail: "cli_not_installed", reason: `${bin} is not installed on ${where} (or not on its PATH)` };
  return undefined;
}

function connectionLost(location: RemoteLocation, why: string): RemoteFailure {
  return { code: "REMOTE_CONNECTION_LOST", detail: "remote_connection_lost", reason: `the connection to ${describeLocation(location)} was lost${why ? ` (${why})` : ""}` };
}
