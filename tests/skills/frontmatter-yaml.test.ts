// Frontmatter YAML: real YAML parses as the spec says; what is broken fails with the line it is on.
import { describe, expect, test } from "bun:test";
import { parseFrontmatterYaml, stringifyFrontmatterYaml } from "../../server/skills/frontmatter-yaml.ts";

const ok = (text: string) => {
  const result = parseFrontmatterYaml(text);
  if (!result.ok) throw new Error(`line ${result.line}: ${result.error}`);
  return result.value;
};
const fail = (text: string, firstLine?: number) => {
  const result = parseFrontmatterYaml(text, firstLine);
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
    expect(ok(`a: |\n  line one\n  line two\n\n  # not a comment\nb: >-\n  folded\n  text\n\n  para\nc: a long\n  value\nd: |+\n  kept\n\ne: 1\n`)).toEqual({
      a: "line one\nline two\n\n# not a comment\n",
      b: "folded text\npara",
      c: "a long value",
      d: "kept\n\n",
      e: 1,
    });
  });

  test("anchors, aliases and merge keys", () => {
    expect(ok(`defaults: &defaults\n  mode: deck\n  preview: {type: html}\ntriggers: &t [slides, deck]\nod:\n  <<: *defaults\n  mode: prototype\nalso: *t\n`)).toEqual({
      defaults: { mode: "deck", preview: { type: "html" } },
      triggers: ["slides", "deck"],
      od: { mode: "prototype", preview: { type: "html" } },
      also: ["slides", "deck"],
    });
  });

  test("multi-line quoted strings fold like YAML says", () => {
    expect(ok(`description: "Builds a deck\n  from an outline: one slide\n\n  per heading"\nsingle: 'it''s\n  here'\n`)).toEqual({
      description: "Builds a deck from an outline: one slide\nper heading",
      single: "it's here",
    });
  });

  test("multi-line flow collections and nested ones", () => {
    expect(ok(`triggers: [\n  slides,\n  "deck, big",\n  {nested: [1, 2]}\n]\n`)).toEqual({ triggers: ["slides", "deck, big", { nested: [1, 2] }] });
  });

  test("an empty or comment-only document is an empty map", () => {
    expect(ok("")).toEqual({});
    expect(ok("# nothing here\n")).toEqual({});
  });

  test("a __proto__ key is plain data, not the object's prototype", () => {
    const value = ok(`__proto__: {polluted: true}\nname: x\n`);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.hasOwn(value, "__proto__")).toBe(true);
  });

  test("stringify round-trips through the parser", () => {
    const value = { name: "x", description: 'has: colon, "quotes", #hash\nand a newline', triggers: ["a", "b: c", "*star", "- dash", "yes", "3"], od: { mode: "m", preview: { type: "html" }, example_prompt: "Do it" }, none: [] };
    expect(ok(stringifyFrontmatterYaml(value))).toEqual(value);
  });

  test("stringify keeps a long description on one line", () => {
    const description = "word ".repeat(40).trim();
    expect(stringifyFrontmatterYaml({ description })).toBe(`description: ${description}`);
  });
});

describe("broken", () => {
  test.each([
    ["unterminated quote (reported where it opens)", `name: "abc\nx: 1`, 1],
    ["unterminated quote after other keys", `a: 1\nb: 'x\n\nc: 2\n`, 2],
    ["duplicate key", `a: 1\nb: 2\na: 3`, 3],
    ["tab indentation", `a:\n\tb: 1`, 2],
    ["bad indentation", `a: 1\nb: 2\n   c: 3`, 2],
    ["unquoted ': ' in a value", `name: x\ndescription: Audit: the folder`, 2],
    ["alias without an anchor", `a: 1\nb: *ref`, 2],
    ["alias used before its anchor", `a: *later\nb: &later 1`, 1],
    ["a list where keys were expected", `a: 1\n- b`, 2],
    ["a top-level list", `# c\n- a\n- b`, 2],
    ["a top-level scalar", `just text`, 1],
    ["unterminated flow list", `a: [x, y`, 1],
    ["unknown tag", `a: 1\nb: !custom x`, 2],
    ["a tag outside the core schema", `a: !!binary aGVsbG8=`, 1],
    ["two documents", `a: 1\n---\nb: 2`, 2],
  ])("%s", (_name, text, line) => {
    expect(fail(text).line).toBe(line);
  });

  test("messages say what is wrong", () => {
    expect(fail(`a: 1\na: 2`).error).toMatch(/unique/i);
    expect(fail(`a: "open\nb: 1\n`).error).toBe('Missing closing "quote (the string runs to the end of the frontmatter)');
    expect(fail(`description: Audit: the folder`).error).toContain("quote it");
    expect(fail(`b: *ref`).error).toBe("alias '*ref' has no anchor before it");
    expect(fail(`- a`).error).toBe("the frontmatter must be a map of keys");
    expect(fail(`b: !!binary x`).error).toContain("!!binary");
  });

  test("an alias bomb is refused, not expanded", () => {
    const bomb = ["a: &a [x, x, x, x, x, x, x, x, x]", "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]", "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]", "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]", "e: [*d, *d, *d, *d, *d, *d, *d, *d, *d]"].join("\n");
    expect(fail(bomb, 2)).toMatchObject({ ok: false, line: 2, error: expect.stringMatching(/alias/i) });
  });

  test("line numbers count from the given first line", () => {
    expect(parseFrontmatterYaml(`a: 1\na: 2`, 2)).toMatchObject({ ok: false, line: 3 });
    expect(parseFrontmatterYaml(`a: 1\n\n\nb: *nope`, 2)).toMatchObject({ ok: false, line: 5 });
  });
});
