/**
 * Why a remote location's transport (the local ssh or docker exec client) broke, in words taken from the transport
 * alone: its own diagnostic lines, or how the client ended. The client's stderr also carries the agent's own
 * stderr (a CLI's warnings, raw terminal escapes and all), which says nothing about the connection and never
 * becomes the reason. Pure.
 */
import type { RemoteLocation } from "./machine-url.ts";

/** What ssh itself prints when a connection cannot be made or breaks (never the remote command's output). */
const SSH_OWN_LINE =
  /^(ssh: |ssh_\w+: |kex_exchange_identification: |client_loop: |Connection (to \S+ closed|closed by|reset by|timed out)|Timeout, server |packet_write_wait: |Read from remote host |Write failed: |mux_client_\w+: |Control ?[Ss]ocket |Host key verification failed|Permission denied \(|Received disconnect from |Broken pipe)/;
/** What the docker CLI itself prints when the engine or the container is not there. */
const DOCKER_OWN_LINE = /^(Error response from daemon|Cannot connect to the Docker daemon|Error: No such container|error during connect)/;
/** Terminal escape sequences (CSI, OSC, two-character) and other control characters. */
const ESCAPES = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])|[\x00-\x08\x0b-\x1f\x7f]/g;
const MAX_WHY_CHARS = 300;

/** One line of a client's or probe's output as plain, short text: no escapes, no control characters. */
export function plainLine(text: string): string {
  const line = text.replace(ESCAPES, "").replace(/\s+/g, " ").trim();
  return line.length > MAX_WHY_CHARS ? `${line.slice(0, MAX_WHY_CHARS - 1)}…` : line;
}

/** The transport's last own diagnostic line in `stderr`, or how its client ended. */
export function transportWhy(location: RemoteLocation, exit: { code: number | null; signal: string | null }, stderr: string): string {
  const own = location.kind === "ssh" ? SSH_OWN_LINE : DOCKER_OWN_LINE;
  const lines = stderr.split(/\r?\n/).map(plainLine).filter((line) => own.test(line));
  const last = lines.at(-1);
  if (last) return last;
  const client = location.kind === "ssh" ? "the ssh client" : "the docker exec client";
  return exit.signal !== null ? `${client} was ended by ${exit.signal}` : `${client} exited with code ${exit.code}`;
}
