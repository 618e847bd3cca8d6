/**
 * The machine a project path or a machine URL names: this machine for a local path, an SshMachine for
 * `ssh://[user@]host[:port]/path`, a DockerMachine for `docker://CONTAINER/path`. The one place that tells them apart.
 */
import { loadOnFirstUse } from "../platform/load-on-first-use.ts";
import { LocalMachine } from "./local-machine.ts";
import type { Machine, MachinePlace } from "./machine.ts";
import { isRemoteUrl, parseLocation, parseMachineLocation, type RemoteLocation } from "./machine-url.ts";
import type { RemoteContext } from "./remote-exec.ts";
import type * as DockerMachineModule from "./docker-machine.ts";
import type * as SshMachineModule from "./ssh-machine.ts";
import type { RemoteMachine } from "./remote-machine.ts";

// The remote machines (and the remote plumbing under them) are evaluated when a URL names one: a local `od run`
// never does.
const dockerMachine = loadOnFirstUse<typeof DockerMachineModule>(import.meta.url, "./docker-machine.ts", () => require("./docker-machine.ts"));
const sshMachine = loadOnFirstUse<typeof SshMachineModule>(import.meta.url, "./ssh-machine.ts", () => require("./ssh-machine.ts"));

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
  return root.kind === "ssh" ? new (sshMachine().SshMachine)(root, context) : new (dockerMachine().DockerMachine)(root, context);
}
