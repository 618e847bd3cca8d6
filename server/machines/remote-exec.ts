/**
 * Running one short script on a remote location and collecting what it printed: folder checks, the cookie
 * sweep, file listings and reads, change snapshots; optionally fed bytes on its stdin (files written there).
 * Bounded by a timeout (the child is killed at it) and by an output cap. `reachLocation` is the quickest of them:
 * whether the location answers at all.
 * Never throws: an unreachable host or a missing container is a result, told apart from the script's own exit.
 */
import { spawnChild, type ChildHandle } from "../platform/process.ts";
import { OdError } from "../errors.ts";
import { sshControlDir } from "./control-dir.ts";
import { describeLocation, type RemoteLocation } from "./machine-url.ts";
import { locationAnswered } from "./location-contact.ts";
import { inSessionTurn } from "./session-slots.ts";
import { noteSessionStart } from "./session-starts.ts";
import { collectScriptChild } from "./script-child.ts";
import { scriptFraming } from "./script-framing.ts";
import { remoteShellArgv, type RemoteArgvOptions } from "./transport-argv.ts";

export type RemoteExecResult =
  | { kind: "exited"; code: number | null; stdout: Uint8Array; stderr: string }
  /** ssh could not reach or log in to the host, docker could not reach the container: `stderr` says why. */
  | { kind: "unreachable"; stderr: string }
  | { kind: "timeout"; stderr: string };

/** What the remote side needs from this process: the ssh/docker options and the local environment for them. */
export type RemoteContext = {
  env: Record<string, string | undefined>;
  /** The data dir, whose `ssh/` folder keeps ssh's control sockets (default: the one `env` names; see control-dir.ts). */
  dataDir?: string;
  /** Overrides the default control-socket folder (tests). */
  controlDir?: string;
  /** How long a run's container may be paused, stopped or silent before the run ends as a lost connection (container-liveness.ts). */
  livenessMs?: number;
};

/** ssh exits 255 for its own errors (connect, auth, host key); the remote command's codes are passed through. */
const SSH_OWN_FAILURE = 255;
/** docker exec's own failures: the daemon or the container is not there. */
const DOCKER_OWN_FAILURE = /^(Error response from daemon|Cannot connect to the Docker daemon|Error: No such container)/m;

/** The argv options for `location` in `context`: the private control folder, `OD_SSH_CONFIG`. */
export function remoteArgvOptions(context: RemoteContext): RemoteArgvOptions {
  const sshConfig = context.env.OD_SSH_CONFIG;
  return { controlDir: context.controlDir ?? sshControlDir(context.env, context.dataDir), ...(sshConfig ? { sshConfig } : {}) };
}

/** The environment of the local ssh/docker client: ours, minus od's own token (the agent's env goes on stdin). */
export function clientEnv(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const { OD_TOKEN: _token, ...rest } = env;
  return rest;
}

/**
 * Every command od runs there is `sh -s` (fed its script on stdin). Without a `sh` on that side's PATH the client
 * exits 126/127 with the runtime's or the login shell's words (docker puts them on stdout): said plainly instead, since
 * "exit 126" or "the agent could not be started" would send a person looking in the wrong place.
 */
const NO_SHELL = /exec: "?sh"?: (?:executable file not found|not found)|\bsh: (?:command )?not found|command not found: sh\b|unknown command:? '?sh\b/i;

/** What to tell a person when the location has no `sh` for od's commands, else undefined. */
export function missingShell(location: RemoteLocation, code: number | null, output: string): string | undefined {
  if (code !== 126 && code !== 127) return undefined;
  if (!NO_SHELL.test(output)) return undefined;
  return location.kind === "docker"
    ? `there is no sh in container ${location.container} (od runs its commands there with sh; use an image that has /bin/sh)`
    : `there is no sh on ${describeLocation(location)}'s PATH (od runs its commands there with sh)`;
}

/** True when a finished client's exit and stderr mean the location itself failed, not the script on it. */
export function isTransportFailure(location: RemoteLocation, code: number | null, stderr: string): boolean {
  return location.kind === "ssh" ? code === SSH_OWN_FAILURE : code !== 0 && DOCKER_OWN_FAILURE.test(stderr);
}

/**
 * Killed at `timeoutMs`; at most `maxBytes` of stdout kept (default 1 MiB); `stdin` fed to the script; `onStarted`
 * called when the script first prints (it is running there: the location answered).
 */
export type RemoteScriptOptions = { timeoutMs: number; maxBytes?: number; stdin?: Uint8Array | AsyncIterable<Uint8Array>; onStarted?: () => void };

export function runRemoteScript(location: RemoteLocation, script: string, args: readonly string[], context: RemoteContext, options: RemoteScriptOptions): Promise<RemoteExecResult> {
  // Its timeout counts from its start, not from when it began to wait for a turn.
  return inSessionTurn(location, () => runScriptNow(location, script, args, context, options));
}

async function runScriptNow(location: RemoteLocation, script: string, args: readonly string[], context: RemoteContext, options: RemoteScriptOptions): Promise<RemoteExecResult> {
  const argv = remoteShellArgv(location, remoteArgvOptions(context));
  let child: ChildHandle;
  try {
    child = await spawnChild({ argv, env: clientEnv(context.env), stdin: "pipe", ownProcessGroup: true });
  } catch (error) {
    return { kind: "unreachable", stderr: `could not start ${argv[0]}: ${(error as { code?: string }).code ?? String(error)}` };
  }
  const spawnedAt = performance.now();
  const end = await collectScriptChild(child, scriptFraming(script, args, { payloadFollows: options.stdin !== undefined }), {
    ...options,
    onStarted: () => {
      noteSessionStart(location, performance.now() - spawnedAt);
      options.onStarted?.();
    },
  });
  if (end.kind === "timeout") return end;
  const { code, stdout, stderr } = end;
  if (isTransportFailure(location, code, stderr)) return { kind: "unreachable", stderr: stderr.trim() };
  // Docker puts its own words on stdout: read them only for the two exits that can mean a missing sh.
  const noShell = code === 126 || code === 127 ? missingShell(location, code, `${new TextDecoder().decode(stdout.subarray(0, 4096))}\n${stderr}`) : undefined;
  if (noShell) return { kind: "unreachable", stderr: noShell };
  // A script that printed nothing started no later than it ended.
  if (!end.printed) noteSessionStart(location, performance.now() - spawnedAt);
  locationAnswered(location);
  return { kind: "exited", code, stdout, stderr };
}

/** The script's exit, or the REMOTE_UNREACHABLE OdError (machine_timeout when it did not answer in time) for an API answer. */
export function expectExited(location: RemoteLocation, result: RemoteExecResult): Extract<RemoteExecResult, { kind: "exited" }> {
  return expectExitedOn(describeLocation(location), result);
}

/** `expectExited` for the machine a person knows as `where`. */
export function expectExitedOn(where: string, result: RemoteExecResult): Extract<RemoteExecResult, { kind: "exited" }> {
  if (result.kind === "exited") return result;
  throw new OdError(result.kind === "timeout" ? "machine_timeout" : "machine_failed", "REMOTE_UNREACHABLE", `cannot reach ${where}${result.stderr ? `: ${result.stderr}` : ""}`);
}

/** How long the check that a location answers at all waits. */
export const REACH_TIMEOUT_MS = 15_000;

/** Whether the location answers at all: one quick command there, before any probe. */
export type LocationReach = { reached: true } | { reached: false; timedOut: boolean; why: string };

export async function reachLocation(location: RemoteLocation, context: RemoteContext): Promise<LocationReach> {
  const reach = await runRemoteScript(location, "true", [], context, { timeoutMs: REACH_TIMEOUT_MS });
  if (reach.kind === "exited") return { reached: true };
  const timedOut = reach.kind === "timeout";
  return { reached: false, timedOut, why: timedOut ? `no answer within ${REACH_TIMEOUT_MS / 1000} s` : reach.stderr };
}
