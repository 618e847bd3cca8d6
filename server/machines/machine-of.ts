/**
 * The machine a project path or a machine URL names: this machine for a local path, an SshMachine for
 * `ssh://[user@]host[:port]/path`, a DockerMachine for `docker://CONTAINER/path`. The one place that tells them apart.
 */
import { LocalMachine } from "./local-machine.ts";
import type { Machine, MachinePlace } from "./machine.ts";
import { isRemoteUrl, parseLocation, parseMachineLocation, type RemoteLocation } from "./machine-url.ts";
import type { RemoteContext } from "./remote-exec.ts";
import { DockerMachine } from "./docker-machine.ts";
import { SshMachine } from "./ssh-machine.ts";
import type { RemoteMachine } from "./remote-machine.ts";

/** The project's machine and its folder there; a malformed URL throws a LocationError. */
export function placeOf(projectPath: string, context: RemoteContext): MachinePlace {
  const location = parseLocation(projectPath);
  if (location.kind === "local") return { machine: new LocalMachine(context.env), folder: location.path };
  return { machine: remoteMachine(location, context), folder: location.path };
}

/** The machine a URL names (`ssh://host`, `docker://c`, with or without a folder), or this one for a local path. */
export function machineAt(url: string, context: RemoteContext): Machine {
  return isRemoteUrl(url) ? remoteMachine(parseMachineLocation(url), context) : new LocalMachine(context.env);
}

/** The machine of a remote location (its folder aside). */
export function remoteMachine(location: RemoteLocation, context: RemoteContext): RemoteMachine {
  const root = { ...location, path: "/" };
  return root.kind === "ssh" ? new SshMachine(root, context) : new DockerMachine(root, context);
}
