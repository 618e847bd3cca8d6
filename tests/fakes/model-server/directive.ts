/**
 * Reading what the person typed: strip the wrappers CLIs inject into user messages, and find the last
 * `[[od:<name> …]]` directive in a prompt.
 */
import type { Directive } from "./types.ts";

const WRAPPER_PATTERNS: RegExp[] = [
  /<system-reminder>[\s\S]*?<\/system-reminder>/g,
  /<environment_context>[\s\S]*?<\/environment_context>/g,
  /<user_instructions>[\s\S]*?<\/user_instructions>/g,
  /<INSTRUCTIONS>[\s\S]*?<\/INSTRUCTIONS>/g,
  /<permissions instructions>[\s\S]*?<\/permissions instructions>/g,
  /<local-command-(?:stdout|stderr|caveat)>[\s\S]*?<\/local-command-(?:stdout|stderr|caveat)>/g,
];

/** Whole messages a CLI injects as a "user" message that no person typed. */
const INJECTED_MESSAGE_PATTERNS: RegExp[] = [
  /^# AGENTS\.md instructions/,
  /^This is the Qwen Code\b/,
  /setting up the context for our chat/i,
];

/** The prompt text with injected wrappers removed, trimmed; "" when nothing a person typed remains. */
export function stripInjectedWrappers(text: string): string {
  let out = text;
  for (const pattern of WRAPPER_PATTERNS) out = out.replace(pattern, "");
  out = out.trim();
  if (INJECTED_MESSAGE_PATTERNS.some((pattern) => pattern.test(out))) return "";
  return out;
}

const DIRECTIVE_PATTERN = /\[\[od:([a-z][a-z0-9-]*)((?:[^\]]|\](?!\]))*)\]\]/gi;

/** The last directive in `text`, or undefined when it has none. */
export function parseLastDirective(text: string): Directive | undefined {
  let last: Directive | undefined;
  for (const match of text.matchAll(DIRECTIVE_PATTERN)) {
    const name = (match[1] ?? "").toLowerCase();
    const { positional, args } = parseArguments(match[2] ?? "");
    last = { name, positional, args, raw: match[0] };
  }
  return last;
}

/**
 * `401 times=2 cmd=echo hi there path="a b.txt"`: bare words before the first `key=` are positional; a value runs
 * until the next ` key=` (so commands may hold spaces) unless it is double-quoted.
 */
function parseArguments(source: string): { positional: string[]; args: Record<string, string> } {
  const positional: string[] = [];
  const args: Record<string, string> = {};
  let rest = source.trim();
  while (rest.length > 0) {
    const keyMatch = /^([A-Za-z_][\w-]*)=/.exec(rest);
    if (!keyMatch) {
      const word = /^\S+/.exec(rest)?.[0] ?? rest;
      positional.push(word);
      rest = rest.slice(word.length).trim();
      continue;
    }
    const key = keyMatch[1] ?? "";
    rest = rest.slice(keyMatch[0].length);
    if (rest.startsWith('"')) {
      const end = rest.indexOf('"', 1);
      const value = end === -1 ? rest.slice(1) : rest.slice(1, end);
      args[key] = value;
      rest = end === -1 ? "" : rest.slice(end + 1).trim();
      continue;
    }
    const next = /\s[A-Za-z_][\w-]*=/.exec(rest);
    const value = next ? rest.slice(0, next.index) : rest;
    args[key] = value.trim();
    rest = next ? rest.slice(next.index).trim() : "";
  }
  return { positional, args };
}
