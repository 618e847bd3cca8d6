/**
 * Where a project lives and its agents run: this machine, a host reached with the system's OpenSSH client, or a
 * running container reached with the Docker CLI. One contract, three implementations (local-machine.ts,
 * ssh-machine.ts, docker-machine.ts); the code above it asks the machine, never whether it is remote.
 *
 * Machine failures are OdErrors of kind `machine_failed`/`machine_timeout` (code REMOTE_UNREACHABLE,
 * REMOTE_TOOLS_MISSING, …) or the domain's own (`INVALID_PROJECT_PATH`, `FILE_NOT_FOUND`, `FILE_TOO_LARGE`); the
 * HTTP layer maps them to answers.
 */
import type { FileStamp } from "./folder-snapshot.ts";
import type { RemoteExecResult, RemoteScriptOptions } from "./remote-exec.ts";
import type { MachineFailure, RunSweep } from "./remote-launch.ts";

export type { MachineFailure, RunSweep };

export type MachineKind = "local" | "ssh" | "docker";

/** A short script's end: its exit, or that the machine could not be reached or did not answer in time. */
export type ExecResult = RemoteExecResult;
export type ExecOptions = RemoteScriptOptions;

/** Whether a machine answers at all. */
export type MachineReach = { reached: true } | { reached: false; timedOut: boolean; why: string };

/** A file found by `listTree`: its path below the folder listed, its size and when it last changed. */
export type TreeFile = { path: string } & FileStamp;

/** An agent process to start: its folder there, its argv and environment there, the run it belongs to. */
export type AgentProcessSpec = {
  folder: string;
  argv: readonly string[];
  env: Record<string, string>;
  runId: string;
  /** Whether the agent reads its stdin (a prompt, protocol frames). */
  stdin: boolean;
};

/** How an agent process is started from here, and what its end says of the machine. */
export type AgentStart = {
  /** Spawned here: the agent itself, or the client (ssh, docker exec) that starts it there. */
  spawn: { argv: string[]; cwd?: string; env: Record<string, string | undefined>; stdin: "pipe" | "ignore" };
  /** Written to the child's stdin before anything else (the launch script and the agent's environment there). */
  preamble?: string;
  /** The run's cookie when its processes are in this machine's process table, where the run's stop sweeps them. */
  cookieHere?: { name: string; value: string };
  /** Ends every process of the run still running there once the child's group is stopped: what it signalled, or that it goes on. */
  sweep(graceMs: number): Promise<RunSweep>;
  /**
   * Watches that the machine stays alive while the agent runs there, beyond what its client notices (a container that
   * is paused); calls `lost` once with why it is not. Returns the function that stops watching.
   */
  watch(lost: (why: string) => void): () => void;
  /** What the child's end says of the machine (the connection broke, the folder or the CLI is missing there), else undefined. */
  failure(exit: { code: number | null; signal: string | null }, stderr: string, weStopped: boolean): Promise<MachineFailure | undefined>;
};

/** The sweep of a run's processes on a machine, as the run service keeps it (remembered and retried when it cannot reach). */
export type RunSweeper = (runId: string, graceMs: number) => Promise<RunSweep>;

export interface Machine {
  readonly kind: MachineKind;
  /** The same machine whatever the folder: `local`, `ssh://[user@]host[:port]` (host in lower case), `docker://CONTAINER`. */
  readonly key: string;
  /** For a person: `this machine`, `[user@]host`, `container CONTAINER`. */
  readonly label: string;
  /**
   * Run a short `sh` script there: `args` are its `$1…` (never script text), `stdin` follows the script. Bounded by a
   * timeout and an output cap; never throws (an unreachable machine is a result).
   */
  exec(script: string, args: readonly string[], options: ExecOptions): Promise<ExecResult>;
  /** Whether the machine answers at all (one quick command). */
  reach(): Promise<MachineReach>;
  /**
   * A project folder as given (`/~/…` is the home folder there), resolved through symlinks to the absolute path
   * od stores; an `INVALID_PROJECT_PATH` OdError when it is no folder there.
   */
  resolveFolder(path: string): Promise<string>;
  /** What od stores as the path of a project in `folder` here: the folder itself on this machine, its URL elsewhere. */
  projectPath(folder: string): string;
  /**
   * The file `relPath` names inside `folder`, as far as can be told without reading it (here: resolved through
   * symlinks, absolute; elsewhere: its shape, the read there resolves it), or undefined when it is outside.
   */
  fileInside(folder: string, relPath: string): string | undefined;
  /** The files of a project folder (od's own and the usual bulky folders skipped), at most `maxFiles`. */
  listFiles(folder: string, maxFiles: number): Promise<Map<string, FileStamp>>;
  /** One regular file inside `folder` (symlinks resolved, never outside it), at most `maxBytes`. */
  readFile(folder: string, relPath: string, maxBytes: number): Promise<Uint8Array<ArrayBuffer>>;
  /**
   * Replace (or make) the file `relPath` inside `folder` with `bytes`: atomically (a temp file beside it, then a
   * rename), readable by its owner only, its folders made as needed; never outside `folder`.
   */
  writeFile(folder: string, relPath: string, bytes: Uint8Array): Promise<void>;
  /**
   * How to run a short command `argv` there, in the home folder, from here: what to spawn here with which environment
   * and what to feed its stdin (the launch script and `env` there; nothing here). `cookie` marks its processes there.
   */
  commandLine(argv: readonly string[], env: Record<string, string>, cookie: string): CommandLine;
  /** Ends what is left there of a command marked with `cookie` (a probe that hung). Never throws. */
  sweepCookie(cookie: string): Promise<void>;
  /** Runs `command` when the machine has room for one more short command (an ssh host's sessions are limited). */
  inTurn<T>(command: () => Promise<T>): Promise<T>;
  /** How to start an agent there; `sweeper` ends what is left of its run there (unused where the stop reaches it). */
  startAgent(spec: AgentProcessSpec, sweeper: RunSweeper): AgentStart;
  /**
   * The files under `dir` whose names end in `suffix`, `depth` folders deep at most: what an agent keeps there (pi's
   * session files). A missing or unreadable folder has none; never throws.
   */
  listTree(dir: string, options: { depth: number; suffix: string }): Promise<TreeFile[]>;
}

/** A short command as spawned here: its argv and environment, and the text its stdin gets first (if any). */
export type CommandLine = { argv: string[]; env: Record<string, string | undefined>; stdinText?: string };

/** A project's place: its machine and its folder there. */
export type MachinePlace = { machine: Machine; folder: string };
