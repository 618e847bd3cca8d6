// Issue #39: one set of design tokens in one stylesheet that every component's styles use: colours (both themes),
// a type scale with nothing under 12 px, radii and spacing. Declarations outside the token blocks may only name them.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const WEB = join(import.meta.dir, "..", "..", "web");
const SHEETS = ["styles.css", "run-view.css"].map((name) => ({ name, css: readFileSync(join(WEB, name), "utf8").replace(/\/\*[\s\S]*?\*\//g, "") }));

/** Every `property: value` outside a custom-property definition, with where it is. */
function declarations(): { where: string; property: string; value: string }[] {
  return SHEETS.flatMap(({ name, css }) =>
    [...css.matchAll(/(?<![-\w])([a-z-]+)\s*:\s*([^;{}]+)[;}]/g)].flatMap((m) => (m[1]!.startsWith("--") ? [] : [{ where: name, property: m[1]!, value: m[2]!.trim() }])),
  );
}

/** The tokens' values, by name (light theme: the first definition). */
function tokens(): Map<string, string> {
  const found = new Map<string, string>();
  for (const { css } of SHEETS) for (const m of css.matchAll(/(--[\w-]+)\s*:\s*([^;]+);/g)) if (!found.has(m[1]!)) found.set(m[1]!, m[2]!.trim());
  return found;
}

describe("design tokens", () => {
  test("the type scale has nothing under 12 px, and every font size is a step of it (or relative to its parent)", () => {
    const scale = [...tokens()].filter(([name]) => name.startsWith("--text-"));
    expect(scale.length).toBeGreaterThanOrEqual(5);
    for (const [, value] of scale) expect(Number.parseFloat(value)).toBeGreaterThanOrEqual(12);
    const literal = declarations().filter((d) => d.property === "font-size" && !/^var\(--text-[\w-]+\)$|em$|%$|^inherit$/.test(d.value));
    expect(literal).toEqual([]);
  });

  test("radii are tokens", () => {
    const literal = declarations().filter((d) => d.property === "border-radius" && !/^(var\(--radius[\w-]*\)\s*)+$|^50%$|^0$/.test(d.value));
    expect(literal).toEqual([]);
  });

  test("colours are tokens: no literal colour outside the token blocks", () => {
    const colour = /#[0-9a-f]{3,8}\b|\brgba?\(|\bhsla?\(/i;
    expect(declarations().filter((d) => colour.test(d.value))).toEqual([]);
  });

  test("the dark theme gives every colour token a value of its own", () => {
    const css = SHEETS[0]!.css;
    const light = css.slice(css.indexOf(":root {"), css.indexOf("}", css.indexOf(":root {")));
    const dark = css.slice(css.indexOf(':root[data-theme="dark"]'), css.indexOf("}", css.indexOf(':root[data-theme="dark"]')));
    const colourTokens = [...light.matchAll(/(--[\w-]+)\s*:\s*(#[0-9a-f]+|rgb[^;]+);/gi)].map((m) => m[1]!);
    const sameInBoth = new Set(["--on-danger", "--frame-bg", "--shadow", "--scrim", "--scrim-light"]);
    for (const name of colourTokens) if (!sameInBoth.has(name)) expect(dark).toContain(`${name}:`);
  });
});
