/**
 * What starting a child process gives the engine, whatever starts it (spawn-bun.ts under Bun, spawn-node.ts
 * elsewhere): web-style async iterables and promises, never a Node stream or a Bun handle.
 */

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

/** The errno code of a failed spawn (ENOENT, EACCES, …), or ESPAWN when it has none. */
export function errnoCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "ESPAWN";
}

/** `ChildHandle.kill` for the child `pid`: the group it leads when asked and it leads one; never throws. */
export function signaller(pid: number, leadsGroup: boolean): ChildHandle["kill"] {
  return (signal = "SIGTERM", options) => {
    const target = options?.group && leadsGroup && process.platform !== "win32" ? -pid : pid;
    try {
      process.kill(target, signal);
    } catch {
      // Already gone: nothing to signal.
    }
  };
}
