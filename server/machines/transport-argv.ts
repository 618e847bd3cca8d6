/**
 * The local argv that starts a POSIX shell on a remote location, reading its script from stdin: OpenSSH's client
 * (`ssh -T`, batch mode, one multiplexed connection per host, the user's own config, keys and known_hosts — host
 * keys verified as ssh always does) or the Docker CLI (`docker exec -i`). Pure: the caller spawns it and writes the
 * script's framing (script-framing.ts) to its stdin.
 *
 * The remote account's login shell parses ssh's command line, and sh, bash, zsh, fish and tcsh agree on no quoting,
 * so that line is always the same few plain words: no byte of a script, path, prompt or name is ever in it.
 */
import type { DockerLocation, RemoteLocation, SshLocation } from "./machine-url.ts";
import { REMOTE_SHELL_ARGV } from "./script-framing.ts";

/** What ssh asks the login shell to run: plain words every shell reads alike; `exec` keeps its pid for the agent. */
export const SSH_REMOTE_COMMAND = `exec ${REMOTE_SHELL_ARGV.join(" ")}`;

export type RemoteArgvOptions = {
  /** Folder for ssh's ControlMaster sockets (private to this user). */
  controlDir: string;
  /** `OD_SSH_CONFIG`: an ssh_config file passed as `ssh -F FILE`. */
  sshConfig?: string;
};

/** `ssh -T -o BatchMode=yes … host -- REMOTE_COMMAND` */
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

/** `docker exec -i CONTAINER ARGV…`: stdin always open, it carries the script. */
export function dockerExecArgv(location: DockerLocation, argv: readonly string[]): string[] {
  return ["docker", "exec", "-i", "--", location.container, ...argv];
}

/** The local argv running `sh -s` on `location`; the script, its args and env go to its stdin (scriptFraming). */
export function remoteShellArgv(location: RemoteLocation, options: RemoteArgvOptions): string[] {
  return location.kind === "ssh" ? sshArgv(location, SSH_REMOTE_COMMAND, options) : dockerExecArgv(location, REMOTE_SHELL_ARGV);
}
