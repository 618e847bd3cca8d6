/**
 * Where a project lives: a local folder, a folder on another machine reached with the system's OpenSSH client
 * (`ssh://[user@]host[:port]/absolute/path`), or a folder in a running container reached with the Docker CLI
 * (`docker://CONTAINER/absolute/path`). Parsing is strict: whatever reaches an ssh or docker command line as an
 * option value (host, user, container) can never look like an option, and the path is an absolute POSIX path.
 */
export type SshLocation = { kind: "ssh"; host: string; user?: string; port?: number; path: string };
export type DockerLocation = { kind: "docker"; container: string; path: string };
export type RemoteLocation = SshLocation | DockerLocation;
export type ProjectLocation = { kind: "local"; path: string } | RemoteLocation;

/** A host name, an IP address or an ssh_config alias; never starting with `-` (ssh would read an option). */
const HOST = /^(?:[A-Za-z0-9_][A-Za-z0-9_.-]*|\[[0-9A-Fa-f:.]+\])$/;
const USER = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
/** Docker's own rule for container names (ids are hex, which it also matches). */
const CONTAINER = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const SSH_URL = /^ssh:\/\/(?:([^@/]*)@)?(\[[^\]/]*\]|[^:/]*)(?::([^/]*))?(\/.*)$/s;
const DOCKER_URL = /^docker:\/\/([^/]*)(\/.*)$/s;

/** A project path that names a machine or container od cannot use. */
export class LocationError extends Error {
  override name = "LocationError";
}

/** True when `text` is meant as an ssh or docker location (whether or not it is a valid one). */
export function isRemoteUrl(text: string): boolean {
  return /^(?:ssh|docker):\/\//i.test(text);
}

/** Parse a project path. Local paths come back as they are; a malformed remote URL throws a LocationError. */
export function parseLocation(text: string): ProjectLocation {
  if (!isRemoteUrl(text)) return { kind: "local", path: text };
  const ssh = SSH_URL.exec(text);
  if (ssh) {
    const [, user, host = "", port, path = ""] = ssh;
    if (!HOST.test(host)) throw new LocationError(`not a host name: ${JSON.stringify(host)}`);
    if (user !== undefined && !USER.test(user)) throw new LocationError(`not a user name: ${JSON.stringify(user)}`);
    const portNumber = port === undefined ? undefined : Number(port);
    if (portNumber !== undefined && !(/^\d{1,5}$/.test(port!) && portNumber >= 1 && portNumber <= 65535)) {
      throw new LocationError(`not a port: ${JSON.stringify(port)}`);
    }
    return { kind: "ssh", host, ...(user !== undefined ? { user } : {}), ...(portNumber !== undefined ? { port: portNumber } : {}), path: checkPath(path) };
  }
  const docker = DOCKER_URL.exec(text);
  if (docker) {
    const [, container = "", path = ""] = docker;
    if (!CONTAINER.test(container)) throw new LocationError(`not a container name: ${JSON.stringify(container)}`);
    return { kind: "docker", container, path: checkPath(path) };
  }
  throw new LocationError(`expected ssh://[user@]host[:port]/absolute/path or docker://CONTAINER/absolute/path, got ${JSON.stringify(text)}`);
}

/**
 * A machine or container to look at (`od agents --on`, `GET /api/agents?location=`): a location URL, or one without a
 * folder (`ssh://[user@]host[:port]`, `docker://CONTAINER`), which is taken as its root. A local path is no machine.
 */
export function parseMachineLocation(text: string): RemoteLocation {
  const location = parseLocation(/^(?:ssh|docker):\/\/[^/]*$/i.test(text) ? `${text}/` : text);
  if (location.kind === "local") throw new LocationError("expected ssh://[user@]host[:port][/path] or docker://CONTAINER[/path]");
  return location;
}

/** The canonical text of a location (what od stores as the project's path). */
export function formatLocation(location: ProjectLocation): string {
  if (location.kind === "local") return location.path;
  if (location.kind === "docker") return `docker://${location.container}${location.path}`;
  const user = location.user !== undefined ? `${location.user}@` : "";
  const port = location.port !== undefined ? `:${location.port}` : "";
  return `ssh://${user}${location.host}${port}${location.path}`;
}

/**
 * The machine or container of a location, without its folder: `ssh://[user@]host[:port]` (the host in lower case,
 * as DNS and ssh_config match it) or `docker://CONTAINER`. What is detected there is the same for every folder.
 */
export function locationKey(location: RemoteLocation): string {
  const machine = location.kind === "ssh" ? { ...location, host: location.host.toLowerCase() } : location;
  return formatLocation({ ...machine, path: "" });
}

/** The location of a stored project path, or undefined for a local one. */
export function remoteLocationOf(path: string): RemoteLocation | undefined {
  if (!isRemoteUrl(path)) return undefined;
  const location = parseLocation(path);
  return location.kind === "local" ? undefined : location;
}

/** Human text for where a location is: `host` or `container CONTAINER`. */
export function describeLocation(location: RemoteLocation): string {
  return location.kind === "ssh" ? `${location.user ? `${location.user}@` : ""}${location.host}` : `container ${location.container}`;
}

/** An absolute POSIX path without NUL, with `.`/`..`/empty segments folded away (`/a/../b/` → `/b`). */
function checkPath(path: string): string {
  if (path.includes("\0")) throw new LocationError("the path holds a NUL byte");
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `/${parts.join("/")}`;
}
