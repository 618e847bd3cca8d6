/**
 * The shape of an `od` subcommand. The dispatcher (server/cli/dispatch.ts) is data-driven: it parses flags from
 * these declarations, prints help from them, and rejects anything undeclared with exit code 2.
 */

export type FlagType = "boolean" | "string" | "number";

export type FlagSpec = {
  /** Long name without dashes, e.g. `port` for `--port`. A boolean `no-open` is written `--no-open`. */
  name: string;
  type: FlagType;
  description: string;
  /** Placeholder shown in help, e.g. `PORT`. */
  valueName?: string;
  /** A flag that may be given several times collects its values into an array. */
  repeatable?: boolean;
};

export type PositionalSpec = {
  name: string;
  description: string;
  optional?: boolean;
  /** Takes every remaining argument. */
  variadic?: boolean;
};

/** Parsed command line: flag values by name, positionals in order. */
export type ParsedArgs = {
  flags: Record<string, string | number | boolean | string[] | undefined>;
  positionals: string[];
};

/** Where a command reads and writes; tests pass fakes, main() passes the process. */
export interface CommandIO {
  stdout(text: string): void;
  stderr(text: string): void;
  stdin: AsyncIterable<Uint8Array>;
  /** Whether a person sits at stdin and stderr (a terminal), who can be asked a question; absent: no. */
  interactive?: () => Promise<boolean>;
  env: Record<string, string | undefined>;
  cwd: string;
  /**
   * Resolves when the user asks to stop (SIGINT/SIGTERM). Reading it is a promise to stop by itself: the process
   * backs it with a getter, and a command that never reads it is killed by the signal as usual.
   */
  readonly interrupted: Promise<string>;
  /**
   * Resolves on a further SIGINT/SIGTERM while stopping: stop faster. The cancel ladder still runs every step (no
   * agent process is ever left behind), only without waiting out its grace periods.
   */
  hurried?: Promise<string>;
}

export type CommandSpec = {
  name: string;
  summary: string;
  /** Extra help text printed under the usage line. */
  details?: string;
  flags: FlagSpec[];
  positionals?: PositionalSpec[];
  /** Returns the process exit code. Long-running commands (serve) resolve when they stop. */
  run(args: ParsedArgs, io: CommandIO): Promise<number>;
};

/**
 * A subcommand as the dispatcher lists it: its name, and its spec, loaded only when the command runs or help shows
 * it. So `od serve` never evaluates (or loads the node built-ins of) the commands it is not running.
 */
export type CommandEntry = {
  name: string;
  load(): CommandSpec | Promise<CommandSpec>;
};

/** An entry for a spec that is already loaded. */
export function eagerCommand(spec: CommandSpec): CommandEntry {
  return { name: spec.name, load: () => spec };
}
