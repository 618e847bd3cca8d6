/**
 * Runs inside a fresh network and mount namespace (see loopback-only.ts): brings its loopback up, hides nscd, forwards 127.0.0.1:PORT to the
 * Unix socket the fake server is reached through, then runs the CLI with this process's stdio and environment,
 * passes on the signals it is sent, and exits as the CLI did.
 *   loopback-only-entry SOCKET PORT -- CLI [ARG...]
 */
import { spawnSync } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import { forwardConnections } from "./loopback-only.ts";

const [socketPath, portText, separator, ...argv] = process.argv.slice(2);
if (!socketPath || !portText || separator !== "--" || !argv.length) {
  console.error("usage: loopback-only-entry SOCKET PORT -- CLI [ARG...]");
  process.exit(2);
}
const up = spawnSync("ip", ["link", "set", "lo", "up"], { encoding: "utf8" });
if (up.status !== 0) {
  console.error(`loopback-only: could not bring up the namespace's loopback (ip link set lo up): ${up.error?.message ?? up.stderr}`);
  process.exit(126);
}

// glibc asks a running nscd (a Unix socket, which crosses network namespaces) before DNS: hidden in this mount
// namespace, so no name is looked up by the host on the CLI's behalf.
// (/var/run is a link to /run on most systems: one folder, hidden once.)
for (const folder of new Set(["/run/nscd", "/var/run/nscd"].filter((path) => existsSync(path)).map((path) => realpathSync(path)))) {
  const hidden = spawnSync("mount", ["-t", "tmpfs", "tmpfs", folder], { encoding: "utf8" });
  if (hidden.status !== 0) {
    console.error(`loopback-only: could not hide ${folder}: ${hidden.error?.message ?? hidden.stderr}`);
    process.exit(126);
  }
}

// Inside, the namespace's 127.0.0.1:PORT is the fake server, through the socket.
forwardConnections({ hostname: "127.0.0.1", port: Number(portText) }, { unix: socketPath });

const cli = Bun.spawn(argv, { stdin: "inherit", stdout: "inherit", stderr: "inherit" });
const signals = ["SIGTERM", "SIGINT", "SIGHUP"] as const;
for (const signal of signals) process.on(signal, () => cli.kill(signal));
await cli.exited;
if (cli.signalCode) {
  for (const signal of signals) process.removeAllListeners(signal);
  process.kill(process.pid, cli.signalCode);
}
process.exit(cli.exitCode ?? 1);
