// Which skills a run uses (ids + @mentions) and the preamble text that carries them.
import { describe, expect, test } from "bun:test";
import type { LoadedSkill } from "../../server/skills/library.ts";
import { composeSkillsPreamble, referencedSideFiles, selectSkills, skillMentions } from "../../server/skills/compose.ts";

const skill = (id: string, extra: Partial<LoadedSkill> = {}): LoadedSkill => ({
  id,
  name: id,
  description: "",
  triggers: [],
  mode: "prototype",
  previewType: "html",
  source: "bundled",
  dir: `/skills/${id}`,
  usable: true,
  diagnostics: [],
  shadows: [],
  body: `Body of ${id}.`,
  ...extra,
});

describe("mentions", () => {
  test("@names are found; emails, paths and trailing punctuation are not part of them", () => {
    expect(skillMentions("use @html-slides, then @audit. mail me@example.com or see docs/@x")).toEqual(["html-slides", "audit"]);
  });

  test("ids first, then mentions, deduplicated; unknown mentions stay text, unknown ids are reported; broken skills set aside", () => {
    const skills = [skill("deck"), skill("audit"), skill("broken", { usable: false })];
    const selection = selectSkills(skills, ["audit", "ghost"], "make a @deck with @Audit and @nobody and @broken");
    expect(selection.selected.map((s) => s.id)).toEqual(["audit", "deck"]);
    expect(selection.unknownIds).toEqual(["ghost"]);
    expect(selection.unusable.map((s) => s.id)).toEqual(["broken"]);
  });
});

describe("preamble", () => {
  test("no skills → empty", () => {
    expect(composeSkillsPreamble([])).toBe("");
  });

  test("a skill without side files is just its body under a heading", () => {
    expect(composeSkillsPreamble([{ skill: skill("deck"), files: ["SKILL.md"] }])).toBe(
      "# Skills\n\nThe user chose the skill below for this request. Follow its instructions; where they conflict with the user's explicit request, the request wins.\n\n## Skill: deck\n\nBody of deck.",
    );
  });

  test("side files: staged relative path first, absolute source as fallback, referenced files named, none inlined", () => {
    const deck = skill("deck", { body: "Start from `references/skeleton.md`; see assets/logo.svg." });
    const text = composeSkillsPreamble([{ skill: deck, files: ["SKILL.md", "assets/logo.svg", "references/skeleton.md", "references/unused.md"], stagedPath: ".od-skills/deck-0123456789" }]);
    expect(text).toContain(
      "This skill's folder is copied to `.od-skills/deck-0123456789/` (relative to your working directory). If that path is missing, read the files from `/skills/deck`. The instructions below refer to `assets/logo.svg`, `references/skeleton.md`: open them from that folder when a step needs them (they are not included here).",
    );
    expect(text.indexOf(".od-skills/deck-0123456789")).toBeLessThan(text.indexOf("/skills/deck`"));
    expect(text).not.toContain("references/unused.md");
  });

  test("unstaged skill with unreferenced side files: the source folder and a count", () => {
    const text = composeSkillsPreamble([{ skill: skill("a"), files: ["SKILL.md", "x.md", "y.md"] }, { skill: skill("b"), files: ["SKILL.md"] }]);
    expect(text).toContain("This skill's folder is at `/skills/a`. It also holds 2 supporting files you can read when useful.");
    expect(text).toContain("The user chose the skills below");
    expect(text).toContain("## Skill: b\n\nBody of b.");
  });

  test("referencedSideFiles ignores SKILL.md", () => {
    expect(referencedSideFiles("see SKILL.md and a.md", ["SKILL.md", "a.md", "b.md"])).toEqual(["a.md"]);
  });
});
