/**
 * How a script, its arguments and an environment reach a remote shell as data. Over ssh the remote account's login
 * shell (sh, bash, zsh, fish, tcsh…) parses the command line first, and no quoting reads the same in all of them, so
 * the command line is a fixed `exec sh -s` (words every shell reads alike) and everything else travels on stdin as
 * one POSIX-quoted brace group that sh parses whole before running any of it: `export`s, `set -- ARGS…`, the
 * script text in a variable, `eval` of it. Docker gets the same stdin, so both transports share one path.
 *
 * When bytes for the script follow the framing (an agent's stdin, a file being written), they must not be read by
 * the shell itself: dash reads its input in blocks of up to 8 KiB and busybox sh of up to 1 KiB, and the part of the
 * payload they swallow with the framing would be lost. So a padding longer than any such block comes between the
 * two, ending with a marker line; the group skips what is left of it with `read`, which takes a pipe byte by byte,
 * and the script starts exactly at the first payload byte. That skip costs some 40 ms of a loaded machine's time,
 * so only the commands that have a payload (an agent's launch, a file write) pay it.
 */
import { shellCommand, shellQuote } from "./shell-quote.ts";

/** The remote command, as sh's argv: read the framing (then the payload) from stdin. */
export const REMOTE_SHELL_ARGV = ["sh", "-s"] as const;

/** Exit code when stdin ended before the padding's marker: od closed it, or the connection broke first. */
export const FRAMING_CUT_EXIT = 97;

/** Twice the largest block a known sh reads its input in (dash: 8 KiB), as lines of `#`. */
const PADDING_LINE = `${"#".repeat(63)}\n`;
const PADDING = PADDING_LINE.repeat(256);
const MARKER = "od-payload-follows";

export type FramingOptions = {
  /** Exported before the script runs (the agent's environment): on stdin, it appears in no command line. */
  env?: Record<string, string>;
  /** Bytes for the script come after the framing on stdin: pad it so the shell cannot read into them. */
  payloadFollows?: boolean;
};

/** The stdin that makes `sh -s` run `script` with `args` as `$1…`, exporting `env` first. */
export function scriptFraming(script: string, args: readonly string[], options: FramingOptions = {}): string {
  const lines = ["{"];
  if (options.payloadFollows) {
    lines.push(`while IFS= read -r od_line; do [ "$od_line" = ${MARKER} ] && break; done; [ "$od_line" = ${MARKER} ] || exit ${FRAMING_CUT_EXIT}`);
  }
  for (const [name, value] of Object.entries(options.env ?? {})) {
    // Our own variables keep their names; anything else that is no variable name is dropped.
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !name.startsWith("od_")) lines.push(`export ${name}=${shellQuote(value)}`);
  }
  lines.push(shellCommand(["set", "--", ...args]), `od_script=${shellQuote(script)}`, 'eval "$od_script"', "exit", "}", "");
  const group = lines.join("\n");
  return options.payloadFollows ? `${group}${PADDING}${MARKER}\n` : group;
}
