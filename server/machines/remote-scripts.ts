/**
 * The POSIX-shell scripts od runs on a remote location. Each takes its inputs as positional arguments (set by the
 * framing on stdin, script-framing.ts), never spliced into its text, so nothing a user or an agent named can become
 * shell syntax.
 */
import { HIDDEN_DIRS } from "./folder-snapshot.ts";
import { shellQuote } from "./shell-quote.ts";

/** `find`'s test for the folders a remote walk leaves out, the local walk's HIDDEN_DIRS: `-name .git -o -name node_modules …`. */
export const HIDDEN_DIRS_FIND_TEST = [...HIDDEN_DIRS].map((name) => `-name ${shellQuote(name)}`).join(" -o ");

/**
 * Start an agent: go to the folder and become the agent. `$1` is the folder, `$2…` the agent's argv. The agent's
 * environment (its secrets and the run cookie) is exported by the framing on stdin (script-framing.ts), so it
 * appears in no command line, neither ssh's here nor the shell's there.
 * Under sshd the shell leads its own session and group, and `exec` keeps that pid, so the agent leads its group.
 * Exit 96: no such folder.
 */
export const LAUNCH_SCRIPT = ['cd -- "$1" || exit 96', "shift", 'exec "$@"'].join("\n");

/**
 * End every process carrying the run cookie (`$1` = `NAME=value`, matched as a whole environment entry), and the
 * process groups they lead: SIGTERM, up to `$2` tenths of a second for them to go, then SIGKILL rounds until
 * none is left. Prints each pid it signalled (one per line). Linux /proc with GNU or busybox grep's `-z`.
 */
export const SWEEP_SCRIPT = [
  // Said first: the sweep is running there, so the location answered (its waits below may take the grace).
  'echo started',
  'c=$1; tenths=$2',
  "carriers() { grep -lzxF -- \"$c\" /proc/[0-9]*/environ 2>/dev/null | sed -n 's#^/proc/\\([0-9]*\\)/environ$#\\1#p' | grep -vx \"$$\"; }",
  'pids=$(carriers)',
  '[ -n "$pids" ] || exit 0',
  'echo "$pids"',
  'for p in $pids; do kill -TERM -- "-$p" 2>/dev/null; kill -TERM "$p" 2>/dev/null; done',
  'i=0',
  'while [ "$i" -lt "$tenths" ] && [ -n "$(carriers)" ]; do sleep 0.1; i=$((i+1)); done',
  'for round in 1 2 3 4 5; do',
  '  pids=$(carriers)',
  '  [ -n "$pids" ] || break',
  '  echo "$pids"',
  '  for p in $pids; do kill -KILL -- "-$p" 2>/dev/null; kill -KILL "$p" 2>/dev/null; done',
  '  sleep 0.2',
  'done',
  'exit 0',
].join("\n");

/**
 * Exit 6 unless GNU find, sed and coreutils are there: the scripts that list and snapshot folders use `find -printf`
 * and NUL-separated `sed`/`sort`/`head`/`comm`, which busybox (Alpine images) and BSD (macOS) lack, and without them
 * they would answer with a silently empty list. Checked first, so the answer says what is missing instead.
 */
export const GNU_TOOLS_CHECK = String.raw`find . -maxdepth 0 -printf '' 2>/dev/null || exit 6
[ "$(printf 'b\0a\0' | sed -z 's/a/c/' 2>/dev/null | sort -z 2>/dev/null | head -z -n 1 2>/dev/null | comm -z - /dev/null 2>/dev/null | tr '\0' .)" = b. ] || exit 6`;
export const GNU_TOOLS_MISSING_EXIT = 6;

/** What a location without GNU tools is told, for `what` (the files panel, the project's skills…). */
export function gnuToolsMissingText(what: string, where: string): string {
  return `${what} needs GNU find, sed and coreutils on ${where} (busybox and BSD versions lack what it uses)`;
}

