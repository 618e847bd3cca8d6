// The frontmatter YAML subset: what skills use parses exactly; what it does not support fails with a line number.
import { describe, expect, test } from "bun:test";
import { parseYamlSubset, stringifyYamlSubset } from "../../server/skills/yaml-subset.ts";

const ok = (text: string) => {
  const result = parseYamlSubset(text);
  if (!result.ok) throw new Error(`line ${result.line}: ${result.error}`);
  return result.value;
};
const fail = (text: string) => {
  const result = parseYamlSubset(text);
  if (result.ok) throw new Error(`parsed: ${JSON.stringify(result.value)}`);
  return result;
};

describe("valid", () => {
  test("scalars, quotes, comments, typed values", () => {
    expect(
      ok(`name: html-prototype   # the id
description: "Build it: fast \\"now\\" \\u00e9"
single: 'it''s here'
count: 3
ratio: 1.5
on: true
off: false
none: ~
empty:
url: https://example.com/a#b
`),
    ).toEqual({ name: "html-prototype", description: 'Build it: fast "now" é', single: "it's here", count: 3, ratio: 1.5, on: true, off: false, none: null, empty: null, url: "https://example.com/a#b" });
  });

  test("nested maps, block lists, lists at the key's indentation, flow lists and maps, lists of maps", () => {
    expect(
      ok(`od:
  mode: deck
  preview:
    type: html
  tags: [a, "b, c", 'd']
  opts: {x: 1, y: "two"}
triggers:
- slides
- deck
steps:
  - name: one
    run: yes
  - name: two
`),
    ).toEqual({
      od: { mode: "deck", preview: { type: "html" }, tags: ["a", "b, c", "d"], opts: { x: 1, y: "two" } },
      triggers: ["slides", "deck"],
      steps: [{ name: "one", run: "yes" }, { name: "two" }],
    });
  });

  test("block scalars keep (|) or fold (>) lines; plain scalars continue on indented lines", () => {
    expect(ok(`a: |\n  line one\n  line two\n\n  # not a comment\nb: >-\n  folded\n  text\n\n  para\nc: a long\n  value\n`)).toEqual({
      a: "line one\nline two\n\n# not a comment\n",
      b: "folded text\npara",
      c: "a long value",
    });
  });

  test("stringify round-trips through the parser", () => {
    const value = { name: "x", description: 'has: colon, "quotes", #hash\nand a newline', triggers: ["a", "b: c"], od: { mode: "m", preview: { type: "html" }, example_prompt: "Do it" }, none: [] };
    expect(ok(stringifyYamlSubset(value))).toEqual(value);
  });
});

describe("broken", () => {
  test.each([
    ["unterminated quote", `name: "abc\nx: 1`, 1],
    ["duplicate key", `a: 1\nb: 2\na: 3`, 3],
    ["tab indentation", `a:\n\tb: 1`, 2],
    ["bad indentation", `a: 1\n   b: 2`, 2],
    ["unquoted ': ' in a value", `description: Audit: the folder`, 1],
    ["alias", `a: *ref`, 1],
    ["a list where keys were expected", `a: 1\n- b`, 2],
    ["missing colon", `just text`, 1],
    ["unterminated flow list", `a: [x, y`, 1],
  ])("%s", (_name, text, line) => {
    expect(fail(text).line).toBe(line);
  });

  test("line numbers count from the given first line", () => {
    expect(parseYamlSubset(`a: 1\na: 2`, 2)).toMatchObject({ ok: false, line: 3 });
  });
});
