/**
 * Child processes through `node:child_process`: how the engine starts anything under Deno (and any runtime without
 * Bun's own spawn). Imported only when used, so a Bun process never loads node:child_process and its streams.
 */
import { spawn as nodeSpawn, type ChildProcess } from "node:child_process";
import { SpawnError, errnoCode, signaller, type ChildExit, type ChildHandle, type ChildStdin, type SpawnOptions } from "./child.ts";

/**
 * Start a child. Resolves once the OS has started it (or rejects with a SpawnError), so a missing executable
 * is an error at the call site rather than an event later.
 */
export function spawnWithNode(options: SpawnOptions): Promise<ChildHandle> {
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
        kill: signaller(pid, leadsGroup),
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

