import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { shellCommand, shellQuote } from "../../server/machines/shell-quote.ts";

const HOSTILE = [
  "",
  " ",
  "plain",
  "it's",
  "'",
  "''",
  "'\\''",
  '"double"',
  "$(touch /tmp/od-pwned)",
  "`id`",
  "$HOME",
  "${PATH}",
  "a;b",
  "a && b || c",
  "a|b",
  "a\nb",
  "line\r\nbreak",
  "tab\there",
  "*",
  "?.txt",
  "[abc]",
  "~",
  "~root",
  "-rf",
  "--help",
  "-",
  "!event",
  "#comment",
  "a\\b",
  "\\",
  "{a,b}",
  "<in >out 2>&1",
  "x=1",
  "ünïcødé ✓ 🚀",
  "%s%n",
  "\u0001\u007f",
];

/** What `sh -c` makes of `printf '%s\0' <words>`: the words it received, NUL-separated. */
function wordsSeenBySh(command: string): string[] {
  const result = spawnSync("sh", ["-c", `printf '%s\\0' ${command}`], { encoding: "utf8" });
  expect(result.status).toBe(0);
  return result.stdout.split("\0").slice(0, -1);
}

/** A deterministic pseudo-random generator (tests never depend on luck). */
function generator(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const ALPHABET = [..."aZ9 '\"$`\\;|&<>()*?[]{}~!#\n\t-=%,.:@/^\r", "é", "✓", "🚀"];

describe("shellQuote", () => {
  test("every hostile word reaches sh -c as exactly that one word", () => {
    expect(wordsSeenBySh(shellCommand(HOSTILE))).toEqual(HOSTILE);
  });

  test("property: 300 random words over shell metacharacters survive sh -c unchanged", () => {
    const random = generator(21);
    const words = Array.from({ length: 300 }, () => {
      const length = Math.floor(random() * 12);
      return Array.from({ length }, () => ALPHABET[Math.floor(random() * ALPHABET.length)]).join("");
    });
    expect(wordsSeenBySh(shellCommand(words))).toEqual(words);
  });

  test("plain words stay readable; everything else is single-quoted", () => {
    expect(shellQuote("/srv/app-1/src")).toBe("/srv/app-1/src");
    expect(shellQuote("OD_RUN_ID=run_1")).toBe("OD_RUN_ID=run_1");
    expect(shellQuote("")).toBe("''");
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote("$(id)")).toBe("'$(id)'");
  });
});
