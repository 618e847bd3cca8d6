/**
 * Child processes, the one way the engine starts anything. Built on `node:child_process` so the same code runs
 * under Bun and Deno; callers see web-style async iterables and promises, never a Node stream or a Bun handle.
 */
import { spawn as nodeSpawn, type ChildProcess } from "node:child_process";

export type SpawnOptions = {
  /** Executable followed by its arguments. */
  argv: string[];
  cwd?: string;
  /** The complete environment of the child (not merged with ours). */
  env?: Record<string, string | undefined>;
  /** `pipe` to write to the child; `ignore` gives it /dev/null (one-shot CLIs block on an open pipe). */
  stdin?: "pipe" | "ignore";
  /** Start the child as the leader of its own process group (and session), so the group can be signalled. */
  ownProcessGroup?: boolean;
};

export type ChildExit = { code: number | null; signal: string | null };

export interface ChildStdin {
  /** Resolves when the chunk is handed to the OS; rejects if the pipe is closed. */
  write(chunk: string | Uint8Array): Promise<void>;
  /** Close the pipe (idempotent). */
  end(): void;
  readonly closed: boolean;
}

export interface ChildHandle {
  readonly pid: number;
  readonly stdin: ChildStdin | null;
  readonly stdout: AsyncIterable<Uint8Array>;
  readonly stderr: AsyncIterable<Uint8Array>;
  /**
   * Settles when the process itself has exited — not when its pipes close: a grandchild that inherited stdout
   * (a tool shell in its own session) can hold them open long after.
   */
  readonly exited: Promise<ChildExit>;
  /** Send a signal to the child, or to its whole process group when it leads one. Never throws. */
  kill(signal?: NodeJS.Signals, options?: { group?: boolean }): void;
}

/** A spawn that failed before the child ran (ENOENT, EACCES, ENOTDIR, …). */
export class SpawnError extends Error {
  override name = "SpawnError";
  constructor(
    readonly code: string,
    readonly command: string,
    options?: { cause?: unknown },
  ) {
    super(`could not start ${command}: ${code}`, options);
  }
}

/**
 * Start a child. Resolves once the OS has started it (or rejects with a SpawnError), so a missing executable
 * is an error at the call site rather than an event later.
 */
export function spawnChild(options: SpawnOptions): Promise<ChildHandle> {
  const [command, ...args] = options.argv;
  if (!command) return Promise.reject(new SpawnError("EINVAL", "<empty argv>"));
  return new Promise((resolve, reject) => {
    let child: ChildProcess;
    try {
      child = nodeSpawn(command, args, {
        cwd: options.cwd,
        env: options.env as NodeJS.ProcessEnv | undefined,
        stdio: [options.stdin === "pipe" ? "pipe" : "ignore", "pipe", "pipe"],
        detached: options.ownProcessGroup ?? false,
        windowsHide: true,
      });
    } catch (error) {
      reject(new SpawnError(errnoCode(error), command, { cause: error }));
      return;
    }
    const exited = new Promise<ChildExit>((done) => {
      child.once("exit", (code, signal) => done({ code, signal }));
    });
    child.once("error", (error) => {
      if (child.pid === undefined) reject(new SpawnError(errnoCode(error), command, { cause: error }));
    });
    child.once("spawn", () => {
      const pid = child.pid as number;
      const leadsGroup = options.ownProcessGroup ?? false;
      resolve({
        pid,
        stdin: child.stdin ? wrapStdin(child.stdin) : null,
        stdout: child.stdout as AsyncIterable<Uint8Array>,
        stderr: child.stderr as AsyncIterable<Uint8Array>,
        exited,
        kill(signal = "SIGTERM", killOptions) {
          const target = killOptions?.group && leadsGroup && process.platform !== "win32" ? -pid : pid;
          try {
            process.kill(target, signal);
          } catch {
            // Already gone: nothing to signal.
          }
        },
      });
    });
  });
}

function wrapStdin(stream: NonNullable<ChildProcess["stdin"]>): ChildStdin {
  let closed = false;
  // A child that exits early closes the pipe under us; swallowing EPIPE here keeps that from crashing the daemon.
  stream.on("error", () => {
    closed = true;
  });
  return {
    get closed() {
      return closed || stream.destroyed || stream.writableEnded;
    },
    write(chunk) {
      if (closed || stream.destroyed || stream.writableEnded) return Promise.reject(new Error("stdin is closed"));
      return new Promise((resolve, reject) => {
        stream.write(chunk, (error) => (error ? reject(error) : resolve()));
      });
    },
    end() {
      if (closed) return;
      closed = true;
      try {
        stream.end();
      } catch {
        // The pipe may already be broken.
      }
    },
  };
}

function errnoCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "ESPAWN";
}
