// Issue #34: the reason of REMOTE_CONNECTION_LOST is built from the transport (its own diagnostic lines, or how its
// client ended), never from the agent's last stderr line, which shares the client's stderr (codex's bubblewrap
// warning, raw terminal escapes and all).
import { expect, test } from "bun:test";
import { remoteFailure } from "../../server/machines/remote-launch.ts";
import type { RemoteLocation } from "../../server/machines/machine-url.ts";

const ssh: RemoteLocation = { kind: "ssh", host: "build-box", path: "/srv/app" };
const docker: RemoteLocation = { kind: "docker", container: "rc-pi", path: "/work" };
/** What codex prints on stderr in a container whose kernel refuses it user namespaces (with its colours). */
const CODEX_SANDBOX_WARNING = "\x1b[33mwarning:\x1b[0m Codex's Linux sandbox uses bubblewrap and needs access to create user namespaces.\n";

test("a killed ssh client: the reason says how the client ended, not the agent's warning", () => {
  const failure = remoteFailure(ssh, "codex", { code: null, signal: "SIGKILL" }, CODEX_SANDBOX_WARNING, false);
  expect(failure).toMatchObject({ code: "REMOTE_CONNECTION_LOST", detail: "remote_connection_lost" });
  expect(failure!.reason).toBe("the connection to build-box was lost (the ssh client was ended by SIGKILL)");
});

test("ssh ending 255: its own last diagnostic line is the reason, after the agent's stderr", () => {
  const stderr = `${CODEX_SANDBOX_WARNING}client_loop: send disconnect: Broken pipe\r\n`;
  const failure = remoteFailure(ssh, "codex", { code: 255, signal: null }, stderr, false);
  expect(failure!.reason).toBe("the connection to build-box was lost (client_loop: send disconnect: Broken pipe)");
});

test("ssh ending 255 with nothing of its own said: its exit, not the agent's line", () => {
  const failure = remoteFailure(ssh, "codex", { code: 255, signal: null }, CODEX_SANDBOX_WARNING, false);
  expect(failure!.reason).toBe("the connection to build-box was lost (the ssh client exited with code 255)");
});

test("docker's own error names the container; no escape or control character reaches the reason", () => {
  const stderr = `${CODEX_SANDBOX_WARNING}Error response from daemon: container rc-pi is not running\x1b[0m\n`;
  const failure = remoteFailure(docker, "pi", { code: 1, signal: null }, stderr, false);
  expect(failure!.reason).toBe("the connection to container rc-pi was lost (Error response from daemon: container rc-pi is not running)");
  expect(failure!.reason).not.toMatch(/[\x00-\x1f]/);
});

test("an agent that merely printed a warning and exited is no transport failure", () => {
  expect(remoteFailure(ssh, "codex", { code: 1, signal: null }, CODEX_SANDBOX_WARNING, false)).toBeUndefined();
});
