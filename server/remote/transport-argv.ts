/**
 * The local argv that runs one POSIX-shell script on a remote location: OpenSSH's client (`ssh -T`, batch mode,
 * one multiplexed connection per host, the user's own config, keys and known_hosts — host keys verified as ssh
 * always does) or the Docker CLI (`docker exec`). Pure: the caller spawns it.
 *
 * The script always runs under `sh -c` with its arguments quoted word by word, so the user's login shell on the
 * remote side only ever sees one quoted `sh -c '…' …` line, and no byte of a path, prompt or name becomes syntax.
 */
import type { DockerLocation, RemoteLocation, SshLocation } from "./location.ts";
import { shellCommand } from "./shell-quote.ts";

export type RemoteArgvOptions = {
  /** Folder for ssh's ControlMaster sockets (private to this user). */
  controlDir: string;
  /** `OD_SSH_CONFIG`: an ssh_config file passed as `ssh -F FILE`. */
  sshConfig?: string;
  /** Keep stdin open to the remote script (`docker exec -i`; ssh always forwards stdin). */
  interactive?: boolean;
};

/** `ssh -T -o BatchMode=yes … host -- <quoted sh -c script args…>` */
export function sshArgv(location: SshLocation, remoteCommand: string, options: RemoteArgvOptions): string[] {
  return [
    "ssh",
    "-T", // no pty: the agent's stdio are plain pipes, byte for byte
    "-o", "BatchMode=yes", // never prompt for a password or a host key: fail fast instead
    "-o", "ControlMaster=auto",
    "-o", `ControlPath=${options.controlDir}/%C`,
    "-o", "ControlPersist=60",
    "-o", "ConnectTimeout=10",
    // A host that vanishes mid-run (suspend, network cut) ends the session instead of hanging it forever.
    "-o", "ServerAliveInterval=15",
    "-o", "ServerAliveCountMax=3",
    ...(options.sshConfig ? ["-F", options.sshConfig] : []),
    ...(location.port !== undefined ? ["-p", String(location.port)] : []),
    ...(location.user !== undefined ? ["-l", location.user] : []),
    "--",
    location.host,
    remoteCommand,
  ];
}

/** `docker exec [-i] CONTAINER sh -c SCRIPT od-remote ARGS…` */
export function dockerExecArgv(location: DockerLocation, argv: readonly string[], options: Pick<RemoteArgvOptions, "interactive">): string[] {
  return ["docker", "exec", ...(options.interactive ? ["-i"] : []), "--", location.container, ...argv];
}

/** `sh -c SCRIPT od-remote ARGS…` as argv: `$1…` in the script are `args`. */
export function shScriptArgv(script: string, args: readonly string[] = []): string[] {
  return ["sh", "-c", script, "od-remote", ...args];
}

/** The local argv running `script` with `args` on `location`. */
export function remoteScriptArgv(location: RemoteLocation, script: string, args: readonly string[], options: RemoteArgvOptions): string[] {
  const argv = shScriptArgv(script, args);
  return location.kind === "ssh" ? sshArgv(location, shellCommand(argv), options) : dockerExecArgv(location, argv, options);
}
