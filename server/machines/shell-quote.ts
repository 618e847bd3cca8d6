/**
 * POSIX shell quoting: the one way od turns an argv into the single command string a remote shell (`ssh host CMD`,
 * `sh -c CMD`) parses. Every word comes back as exactly one word — no expansion, no globbing, no command
 * substitution, whatever bytes the word holds (quotes, `$()`, backticks, newlines, `;`, `*`, unicode).
 */

/** Words that need no quotes: letters, digits and a few punctuation marks no POSIX shell treats specially. */
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** One word, quoted for a POSIX shell: single quotes, each `'` written as `'\''`. */
export function shellQuote(word: string): string {
  if (PLAIN_WORD.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** An argv as one command line for a POSIX shell. */
export function shellCommand(argv: readonly string[]): string {
  return argv.map(shellQuote).join(" ");
}
