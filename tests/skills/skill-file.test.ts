// SKILL.md reading: frontmatter + body, required fields, defaults, diagnostics instead of exceptions.
import { describe, expect, test } from "bun:test";
import { parseSkillFile, renderSkillFile, splitFrontmatter } from "../../server/skills/skill-file.ts";

const VALID = `---
name: deck
description: Makes decks
triggers: [slides]
od:
  mode: deck
  preview:
    type: html
  example_prompt: Make a deck
---
# Deck

Do the thing.
`;

describe("parseSkillFile", () => {
  test("a valid file: meta from the frontmatter, body after it, no diagnostics", () => {
    const parsed = parseSkillFile(VALID, "deck");
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.meta).toEqual({ name: "deck", description: "Makes decks", triggers: ["slides"], mode: "deck", previewType: "html", examplePrompt: "Make a deck" });
    expect(parsed.body).toBe("# Deck\n\nDo the thing.\n");
  });

  test("missing od fields and triggers are warnings with defaults; missing name is an error", () => {
    const parsed = parseSkillFile(`---\nname: x\ndescription: d\n---\nbody`, "x");
    expect(parsed.diagnostics.map((d) => [d.severity, d.path])).toEqual([
      ["warning", "triggers"],
      ["warning", "od"],
    ]);
    expect(parsed.meta).toMatchObject({ mode: "general", previewType: "md", triggers: [] });

    const partial = parseSkillFile(`---\nname: x\ndescription: d\ntriggers: []\nod:\n  mode: deck\n---\nbody`, "x");
    expect(partial.diagnostics.map((d) => [d.severity, d.path])).toEqual([
      ["warning", "od.preview"],
      ["warning", "od.example_prompt"],
    ]);

    const nameless = parseSkillFile(`---\ndescription: d\n---\nbody`, "folder");
    expect(nameless.diagnostics.find((d) => d.path === "name")?.severity).toBe("error");
    expect(nameless.meta.name).toBe("folder");
  });

  test("broken YAML → one error naming the file line, body still read", () => {
    const parsed = parseSkillFile(`---\nname: x\ndescription: "open\n---\nbody`, "x");
    expect(parsed.diagnostics).toEqual([{ severity: "error", path: "SKILL.md", message: expect.stringContaining("line 3") }]);
    expect(parsed.body).toBe("body");
  });

  test("frontmatter real skills write: anchors, a multi-line quoted description, a block-scalar prompt", () => {
    const parsed = parseSkillFile(
      `---\nname: deck\ndescription: "Builds a slide deck\n  from an outline"\ntriggers: &words [slides, deck]\nod:\n  mode: deck\n  preview: {type: html}\n  example_prompt: |\n    Make a deck\n    about owls\nx-aliases: *words\n---\nbody`,
      "deck",
    );
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.meta).toEqual({ name: "deck", description: "Builds a slide deck from an outline", triggers: ["slides", "deck"], mode: "deck", previewType: "html", examplePrompt: "Make a deck\nabout owls\n" });
  });

  test("a YAML error names the SKILL.md line it is on", () => {
    const parsed = parseSkillFile(`---\nname: x\n\ndescription: d\ntriggers: *missing\n---\nbody`, "x");
    expect(parsed.diagnostics).toEqual([{ severity: "error", path: "SKILL.md", message: "frontmatter is not valid YAML (line 5): alias '*missing' has no anchor before it" }]);
  });

  test("no frontmatter, or an empty body, is an error", () => {
    expect(parseSkillFile("# just markdown", "x").diagnostics[0]).toMatchObject({ severity: "error", message: expect.stringContaining("no YAML frontmatter") });
    expect(parseSkillFile(`---\nname: x\n---\n\n`, "x").diagnostics[0]).toMatchObject({ severity: "error", message: expect.stringContaining("no instructions") });
  });

  test("CRLF and a BOM are tolerated", () => {
    expect(parseSkillFile(`\uFEFF${VALID.replaceAll("\n", "\r\n")}`, "deck").diagnostics).toEqual([]);
  });
});

test("splitFrontmatter needs an opening and a closing fence", () => {
  expect(splitFrontmatter("---\na: 1\n...\nbody")).toEqual({ yaml: "a: 1\n", body: "body" });
  expect(splitFrontmatter("---\na: 1\nbody").yaml).toBeNull();
});

test("renderSkillFile writes a file parseSkillFile accepts without diagnostics", () => {
  const text = renderSkillFile({ name: "mine", description: 'Tricky: "quotes"', triggers: ["a: b"], mode: "custom", previewType: "md", examplePrompt: "Go" }, "Body\n");
  const parsed = parseSkillFile(text, "mine");
  expect(parsed.diagnostics).toEqual([]);
  expect(parsed.meta.description).toBe('Tricky: "quotes"');
  expect(parsed.body.trim()).toBe("Body");
});
