/**
 * An agent's version as a person reads it next to the agent's name: just the version. CLIs print it their own way
 * (`2.1.332 (Claude Code)`, `codex-cli 0.63.0`, `opencode v1.2.3`), and shown beside the name that said the name
 * twice.
 */

/** The version without the product's name around it; the text as it was when no version number is found in it. */
export function shortVersion(version: string): string {
  const text = version.trim().split("\n")[0]!.trim();
  const number = /\bv?(\d+(?:\.\d+)+(?:[-+][\w.-]+)?)\b/.exec(text);
  return number ? number[1]! : text;
}
