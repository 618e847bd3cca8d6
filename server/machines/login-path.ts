/**
 * The PATH a person's login shell has on another machine. Commands over ssh and docker exec run non-interactive,
 * non-login shells, whose PATH misses what a login sets up (`~/.local/bin`, version managers, a profile's additions):
 * a CLI a person runs there every day was "not found there". When od first reaches a machine it asks its login shell
 * once for its PATH; every probe and agent od starts there gets it (unless the person configured a PATH of their own).
 */

/**
 * Prints the login shell's PATH (found after a marker: a profile may print a banner first), then on a line of its own
 * the PATH the commands get now. csh and tcsh take `-l` only alone: their `-c` reads ~/.tcshrc or ~/.cshrc, where
 * their users set PATH.
 */
export const LOGIN_PATH_SCRIPT = [
  'shell=${SHELL:-/bin/sh}',
  'case ${shell##*/} in',
  `  csh|tcsh) out=$("$shell" -c 'printf "\\n@@od-path@@%s\\n" "$PATH"' </dev/null 2>/dev/null) ;;`,
  `  *) out=$("$shell" -l -c 'printf "\\n@@od-path@@%s\\n" "$PATH"' </dev/null 2>/dev/null) ;;`,
  'esac',
  `printf '%s\\n' "$out" | sed -n 's/^@@od-path@@//p' | tail -n 1`,
  `printf '%s\\n' "$PATH"`,
].join("\n");

const byMachine = new Map<string, string>();

/**
 * The PATH for commands there from LOGIN_PATH_SCRIPT's output: the login shell's folders first, then those of the
 * PATH commands had without it that the login dropped (an image's own folders, which a profile may reset away).
 * Undefined when the login printed no PATH.
 */
export function parseLoginPath(output: string): string | undefined {
  const [login = "", current = ""] = output.split("\n");
  const folders = (path: string) => path.split(":").filter((dir) => dir.startsWith("/"));
  if (!folders(login).length) return undefined;
  return [...new Set([...folders(login), ...folders(current)])].join(":");
}

/** Remembers the login PATH of the machine `key` (a later answer replaces it). */
export function rememberLoginPath(key: string, path: string | undefined): void {
  if (path) byMachine.set(key, path);
}

/** `env` with the machine's login PATH, unless it has a PATH of its own or none is known. */
export function withLoginPath(key: string, env: Record<string, string>): Record<string, string> {
  const path = byMachine.get(key);
  return path && env.PATH === undefined ? { ...env, PATH: path } : env;
}
