/**
 * Every real CLI the tests run runs inside a network namespace of its own whose one interface is loopback: several
 * reach for public addresses when they start, whatever their switches say (seen with strace during the od run
 * scenarios: kilo resolves and dials api.kilo.ai, claude and claude-code-acp api.anthropic.com, codex and codex-acp
 * chatgpt.com, copilot github.com and api.github.com), and any later version may. There a CLI can reach nothing but
 * the fake model server, which is carried in through a Unix socket (a file, so it crosses network namespaces). The
 * host side of that socket ({@link bridgeToUnixSocket}) forwards each connection to the fake server's TCP port; inside, `loopback-only-entry.ts` listens on that same port of the namespace's 127.0.0.1 and
 * forwards each connection to the socket, so the CLI's recipe (its base URL) is the same as anywhere.
 * The namespaces are made by `unshare --user --map-root-user --net --mount` (no root needed where user namespaces are
 * allowed), its loopback brought up with `ip` (iproute2) and a host nscd's socket hidden. A machine that cannot make
 * one is told so once, in words, before any CLI starts ({@link loopbackOnlyProblem}).
 */
import { spawnSync } from "node:child_process";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const ENTRY = join(import.meta.dir, "loopback-only-entry.ts");

type Address = { unix: string } | { hostname: string; port: number };
/**
 * One end of a forwarded connection: its peer once connected, what waits to be written to it, whether to end after
 * that; and, on the accepted end until the onward connection opens, what its client sent (and whether it ended).
 */
type Side = { peer?: Bun.Socket<Side>; outbox: Uint8Array[]; endWhenFlushed?: boolean; early?: { chunks: Uint8Array[]; ended: boolean } };

/** A copy: the chunk a socket's `data` hands over is not ours to keep. */
const copy = (chunk: Uint8Array) => new Uint8Array(chunk);

/** Bun's sockets write what the kernel takes and no more: the rest waits in the side's outbox for `drain`. */
function send(socket: Bun.Socket<Side>, chunk: Uint8Array): void {
  const side = socket.data;
  if (side.outbox.length) {
    side.outbox.push(copy(chunk));
    return;
  }
  const written = Math.max(socket.write(chunk), 0);
  if (written < chunk.length) side.outbox.push(copy(chunk.subarray(written)));
}

function drain(socket: Bun.Socket<Side>): void {
  const side = socket.data;
  while (side.outbox.length) {
    const chunk = side.outbox[0]!;
    const written = Math.max(socket.write(chunk), 0);
    if (written < chunk.length) {
      side.outbox[0] = chunk.subarray(written);
      return;
    }
    side.outbox.shift();
  }
  if (side.endWhenFlushed) socket.end();
}

/** The other end went away: this one ends once what it still has to write is written. */
function endAfterFlush(socket: Bun.Socket<Side> | undefined): void {
  if (!socket) return;
  if (socket.data.outbox.length) socket.data.endWhenFlushed = true;
  else socket.end();
}

/**
 * Forwards every connection made to `from` to a new connection to `to`, both ways, until closed. What the client sends
 * before the onward connection is open is kept for it; an end is passed on once what precedes it is written.
 */
export function forwardConnections(from: Address, to: Address): { close(): void } {
  // (Bun's overloads take a TCP or a Unix address; both shapes are passed through as given.)
  const listener = Bun.listen<Side>({
    ...(from as { unix: string }),
    socket: {
      open(inner) {
        inner.data = { outbox: [], early: { chunks: [], ended: false } };
        void Bun.connect<Side>({
          ...(to as { unix: string }),
          socket: {
            open(outer) {
              outer.data = { peer: inner, outbox: [] };
              inner.data.peer = outer;
              const early = inner.data.early!;
              inner.data.early = undefined;
              for (const chunk of early.chunks) send(outer, chunk);
              if (early.ended) endAfterFlush(outer);
            },
            data: (outer, chunk) => send(inner, chunk),
            drain,
            close: () => endAfterFlush(inner),
            error: () => endAfterFlush(inner),
          },
        }).catch(() => inner.end());
      },
      data(inner, chunk) {
        if (inner.data.peer) send(inner.data.peer, chunk);
        else inner.data.early?.chunks.push(copy(chunk));
      },
      drain,
      close: (inner) => ended(inner),
      error: (inner) => ended(inner),
    },
  } as Bun.UnixSocketOptions<Side>);
  return { close: () => listener.stop(true) };
}

/** The accepted end closed: its onward connection ends once what it still has to write is written. */
function ended(inner: Bun.Socket<Side>): void {
  if (inner.data.peer) endAfterFlush(inner.data.peer);
  else if (inner.data.early) inner.data.early.ended = true;
}

/** The host side: connections to the Unix socket at `socketPath` reach the fake server at 127.0.0.1:`port`. */
export function bridgeToUnixSocket(socketPath: string, port: number): { close(): void } {
  return forwardConnections({ unix: socketPath }, { hostname: "127.0.0.1", port });
}

/**
 * A `#!/bin/sh` shim at `dir/name` that runs `argv` (the CLI's real entry) in a loopback-only network namespace, where
 * 127.0.0.1:`port` reaches the fake server through `socketPath`. The shim, `unshare` and the entry are one process
 * (each execs the next); the CLI is its child, in its process group.
 */
export function writeLoopbackOnlyShim(dir: string, name: string, argv: string[], socketPath: string, port: number): string {
  const path = join(dir, name);
  const quote = (part: string) => `'${part.replaceAll("'", `'\\''`)}'`;
  const command = ["unshare", "--user", "--map-root-user", "--net", "--mount", "--", process.execPath, ENTRY, socketPath, String(port), "--", ...argv];
  writeFileSync(path, `#!/bin/sh\nexec ${command.map(quote).join(" ")} "$@"\n`);
  chmodSync(path, 0o755);
  return path;
}

/**
 * The entry of a CLI (its real `argv`) as a shim in `dir` that runs it in a loopback-only network namespace reaching the
 * fake server at `fakeUrl`, and the bridge carrying that server in (close it when done).
 */
export function loopbackOnlyEntry(dir: string, name: string, argv: string[], fakeUrl: string): { entry: string; close(): void } {
  availability ??= loopbackOnlyProblem(trialRun);
  if (availability) throw new Error(availability);
  const port = Number(new URL(fakeUrl).port);
  const socketPath = join(dir, `${name}-fake.sock`);
  const bridge = bridgeToUnixSocket(socketPath, port);
  return { entry: writeLoopbackOnlyShim(dir, name, argv, socketPath, port), close: () => bridge.close() };
}

/** What a trial of the namespace reported: its exit status and what it wrote on stderr (or why it could not start). */
export type TrialResult = { status: number | null; stderr: string };

/** This process's verdict on the machine, once: undefined when it can make the namespace, else why not. */
let availability: string | undefined | null = null;

const TRIAL = ["unshare", "--user", "--map-root-user", "--net", "--mount", "--", "ip", "link", "set", "lo", "up"];

function trialRun(argv: string[]): TrialResult {
  const trial = spawnSync(argv[0]!, argv.slice(1), { encoding: "utf8" });
  return { status: trial.status, stderr: trial.error ? trial.error.message : trial.stderr };
}

/**
 * Why this machine cannot run a CLI in a loopback-only network namespace, or undefined when it can: one trial of what
 * the shim does (the namespaces, then `ip link set lo up` in them), through `run`.
 */
export function loopbackOnlyProblem(run: (argv: string[]) => TrialResult): string | undefined {
  const trial = run(TRIAL);
  if (trial.status === 0) return undefined;
  return [
    "the real-CLI tests run every CLI in a network namespace whose one interface is loopback (several reach for public",
    `addresses when they start), and this machine could not make one: \`${TRIAL.join(" ")}\` failed: ${trial.stderr.trim() || `exit ${trial.status}`}.`,
    "They need unshare (util-linux) and ip (iproute2), and root or unprivileged user namespaces (kernel.unprivileged_userns_clone=1).",
  ].join(" ");
}

